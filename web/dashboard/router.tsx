/**
 * A small router over the History API: the application's pages live under
 * /dashboard, a link changes the address without a reload, and Back and
 * Forward work. Why not a library: this is the whole of what the pages need.
 */
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/dashboard';

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
window.addEventListener('popstate', notify);

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === location.pathname + location.search + location.hash) return;
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.scrollTo(0, 0);
  notify();
}

interface Location {
  path: string;
  query: URLSearchParams;
  hash: string;
}

const current = (): Location => ({ path: location.pathname.replace(/\/+$/, '') || '/', query: new URLSearchParams(location.search), hash: location.hash });

export function useLocation(): Location {
  const [where, setWhere] = useState(current);
  useEffect(() => {
    const listener = () => setWhere(current());
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return where;
}

/** `pattern` like /dashboard/transactions/:id against a path: the parameters, or undefined. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i]!;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(got[i]!);
    else if (part !== got[i]) return undefined;
  }
  return params;
}

type LinkProps = Omit<JSX.HTMLAttributes<HTMLAnchorElement>, 'href'> & { href: string; children: ComponentChildren };

/** An <a> that navigates inside the application (a modified click still opens a new tab). */
export function Link({ href, children, ...rest }: LinkProps) {
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a {...rest} href={href} onClick={onClick}>
      {children}
    </a>
  );
}
