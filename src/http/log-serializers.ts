/**
 * How a request appears in the log. Query values are replaced by `[redacted]`:
 * clients put keys and tokens in query strings by mistake (`?api_key=…`), and
 * a log line must never hold one. The keys stay, for debugging, unless the
 * name itself is a secret: one that does not look like a parameter name, or
 * one that starts as our keys and secrets do (`?svc_live_…=1`, `?whsec_…`)
 * or as other services' keys pasted by mistake (`?sk_live_…=1`). A path that
 * carries a secret (a dashboard invitation's token) loses it too.
 */
import type { FastifyRequest } from 'fastify';

const PARAMETER_NAME = /^[A-Za-z][A-Za-z0-9_.[\]-]{0,39}$/;
/** How secrets begin: API keys (ours svc_, and sk_/rk_/pk_ as others spell them) and webhook secrets. A fixed pattern, never built from input. */
const SECRET_NAME = /^(?:(?:svc|sk|rk|pk)_(?:live|test)_|whsec_)/i;

/** Whether a query parameter's name may be logged: it looks like a name and not like a secret. */
const loggableName = (name: string): boolean => PARAMETER_NAME.test(name) && !SECRET_NAME.test(name);

export function redactQuery(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const pairs = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      // A bare `?sk_live_…` is a value without a name: redacted whole.
      if (eq < 0) return pair ? '[redacted]' : pair;
      const key = pair.slice(0, eq);
      return `${loggableName(key) ? key : '[redacted]'}=[redacted]`;
    });
  return `${url.slice(0, at)}?${pairs.join('&')}`;
}

/** Paths that hold a secret: a dashboard invitation's token (the page reads it from its URL's fragment and asks for it here). */
const SECRET_PATHS = ['/dashboard/api/invitations/'];

export function redactPath(url: string): string {
  const prefix = SECRET_PATHS.find((p) => url.startsWith(p));
  if (!prefix) return url;
  const query = url.indexOf('?');
  return `${prefix}[redacted]${query < 0 ? '' : url.slice(query)}`;
}

/** Fastify's own request serializer, with the query values and the secrets of paths redacted. */
export function serializeRequest(req: FastifyRequest): Record<string, unknown> {
  return {
    method: req.method,
    url: redactPath(redactQuery(req.url)),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
