/** A page's or section's heading with its one action beside it (Novo link, Convidar, Exportar CSV…). */
import type { ComponentChildren } from 'preact';

interface PageHeadProps {
  title: string;
  /** h1 for a page (the default), h2 for a section, then named by id. */
  level?: 1 | 2;
  id?: string;
  /** A primary button, left out when undefined (the user may not write). */
  action?: { label: string; onClick: () => void };
  children?: ComponentChildren;
}

export function PageHead({ title, level = 1, id, action, children }: PageHeadProps) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <div class="page-head">
      <Heading id={id}>{title}</Heading>
      {action && (
        <button type="button" class="primary" onClick={action.onClick}>
          {action.label}
        </button>
      )}
      {children}
    </div>
  );
}

/** Exportar CSV: a plain link to the export (with the page's language, for its headers and statuses), so the browser downloads the server's stream. */
export function ExportLink({ href, label }: { href: string; label: string }) {
  return (
    <a class="button secondary" href={href} download>
      {label}
    </a>
  );
}
