/**
 * GET /docs: the service's own API reference, a page of ours (web/docs)
 * rendered in the browser from GET /openapi.json, served like the other
 * browser files (web-assets.ts) under a strict CSP: its own script and
 * stylesheet only, requests to this origin only (the "try it" calls), never
 * framed.
 */
import type { FastifyInstance } from 'fastify';
import { PAGE_POLICY_BASE, serveAsset } from './web-assets.js';

/** Its own files only: the "try it" calls go to this origin. */
const DOCS_POLICY = ["default-src 'none'", "script-src 'self'", ...PAGE_POLICY_BASE].join('; ');

export function installDocsPage(app: FastifyInstance): void {
  const hidden = { schema: { hide: true } };
  app.get('/docs', hidden, (request, reply) => {
    reply.header('Content-Security-Policy', DOCS_POLICY).header('Referrer-Policy', 'no-referrer');
    return serveAsset(request, reply, 'docs/page.html', 'text/html; charset=utf-8');
  });
  app.get('/docs/docs.js', hidden, (request, reply) => serveAsset(request, reply, 'docs/docs.js', 'application/javascript; charset=utf-8'));
  app.get('/docs/docs.css', hidden, (request, reply) => serveAsset(request, reply, 'docs/docs.css', 'text/css; charset=utf-8'));
}
