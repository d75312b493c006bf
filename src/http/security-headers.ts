/**
 * Headers on every answer of an app (routes, errors and 404s alike, through
 * onSend; the parser's own refusals in client-errors.ts write nosniff too):
 *
 * - `X-Content-Type-Options: nosniff`: a browser takes each body for the type
 *   it is sent as, so a JSON error or a CSV holding a buyer's text is never
 *   run as a script or rendered as HTML;
 * - `Strict-Transport-Security` when the app is public over https
 *   (PUBLIC_API_URL): browsers then reach it only over https for a year,
 *   subdomains included, so a network in between cannot strip TLS from the
 *   dashboard's session cookie. Over http (the sandbox on localhost) it is
 *   not sent: browsers ignore it there, and it would pin localhost's other apps.
 */
import type { FastifyInstance } from 'fastify';

export const HSTS = 'max-age=31536000; includeSubDomains';

export function installSecurityHeaders(app: FastifyInstance, publicUrl: string | undefined): void {
  const https = publicUrl?.startsWith('https:') ?? false;
  app.addHook('onSend', async (_request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    if (https) reply.header('Strict-Transport-Security', HSTS);
  });
}
