/**
 * GET /: where to start. A browser is sent to the API reference (302 to
 * /docs); a client that does not follow redirects reads the same pointers in
 * the body. Not in the OpenAPI document: it is not part of the API.
 */
import type { FastifyInstance } from 'fastify';

const LINKS = { docs: '/docs', openapi: '/openapi.json', health: '/healthz' };

export function rootRoute(app: FastifyInstance): void {
  app.get('/', { schema: { hide: true } }, async (_request, reply) => {
    reply.code(302).header('Location', LINKS.docs).header('Cache-Control', 'no-cache');
    return { about: 'The API is under /v2; its reference is at /docs', ...LINKS };
  });
}
