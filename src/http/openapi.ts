/**
 * GET /openapi.json: OpenAPI 3.1 generated from the route schemas (every
 * route, its body, its responses and its errors), and GET /docs: a readable
 * reference rendered from it (Swagger UI, served from the package, offline).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ErrorBodySchema } from './common-schemas.js';
import { API_GUIDE } from './api-guide.js';

export async function installOpenApi(app: FastifyInstance, version: string): Promise<void> {
  app.addSchema(ErrorBodySchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Payment collection API', version, description: API_GUIDE },
      components: {
        securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'svc_test_… (sandbox) or svc_live_… (production)' } },
      },
      security: [{ apiKey: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
