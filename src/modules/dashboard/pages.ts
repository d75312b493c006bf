/**
 * The dashboard's pages: one single-page application (web/dashboard, built
 * into dist/web/dashboard) answered for `GET /dashboard` and every
 * `GET /dashboard/*` that is neither the JSON API (`/dashboard/api/*`) nor an
 * asset, so a reload or a shared address opens the page the router shows.
 * The HTML carries no data of the seller's: the application asks the JSON
 * API for everything, so the template is filled with the response's CSP
 * nonce only.
 *
 * The policy allows the application's own script (by this response's nonce)
 * and stylesheet, images of its own and `data:` (QR codes), requests to its
 * own origin, and nothing else: no inline code or style, no eval, no framing.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fillTemplate, serveAsset } from '../../http/web-assets.js';
import { DASHBOARD_API } from '../users/guard.js';

const TEMPLATE = 'dashboard/page.html';

/** Served path under /dashboard/assets/ → file under dist/web and its type. */
const ASSETS: Readonly<Record<string, readonly [file: string, type: string]>> = {
  'dashboard.js': ['dashboard/dashboard.js', 'application/javascript; charset=utf-8'],
  'dashboard.css': ['dashboard/dashboard.css', 'text/css; charset=utf-8'],
};

function dashboardPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

function sendApplication(reply: FastifyReply): FastifyReply {
  const nonce = randomBytes(18).toString('base64');
  return reply
    .header('Content-Security-Policy', dashboardPolicy(nonce))
    .header('Cache-Control', 'no-store')
    // The invitation's token travels in the address's fragment, which no request carries; no referrer leaves anyway.
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Content-Type-Options', 'nosniff')
    .header('X-Frame-Options', 'DENY')
    .type('text/html; charset=utf-8')
    .send(fillTemplate(TEMPLATE, { nonce }));
}

export function dashboardPageRoutes(app: FastifyInstance): void {
  app.get<{ Params: { name: string } }>('/dashboard/assets/:name', { schema: { hide: true } }, (request, reply) => {
    const asset = Object.hasOwn(ASSETS, request.params.name) ? ASSETS[request.params.name] : undefined;
    if (!asset) return reply.callNotFound();
    return serveAsset(request, reply, asset[0], asset[1]);
  });
  app.get('/dashboard', { schema: { hide: true } }, (_request, reply) => sendApplication(reply));
  // The JSON API's own routes are more specific and win; an unknown API path is the API's 404, never the page.
  app.get('/dashboard/*', { schema: { hide: true } }, (request: FastifyRequest, reply) => {
    const path = request.url.split('?', 1)[0]!;
    return path.startsWith(`${DASHBOARD_API}/`) || path === DASHBOARD_API ? reply.callNotFound() : sendApplication(reply);
  });
}
