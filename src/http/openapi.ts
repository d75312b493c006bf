/**
 * GET /openapi.json: OpenAPI 3.1 generated from the route schemas (every
 * route, its body, its responses and its errors), in English or, with
 * `?lang=pt-BR`, in Portuguese (openapi-localize.ts), and GET /docs: the
 * service's reference page rendered from it in the browser (docs-page.ts).
 * The vault installs the same document for its own routes, without /docs.
 *
 * Named schemas (`$id`) become components: each one met in a route is added
 * as a shared schema (its nested named schemas as `$ref`s) when the route is
 * added; openapi-route.ts documents each route, openapi-document.ts finishes
 * the whole document.
 */
import swagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { Type, type Static } from 'typebox';
import { installDocsPage } from './docs-page.js';
import { ErrorBodySchema, ErrorCodeSchema } from './common-schemas.js';
import { finishDocument } from './openapi-document.js';
import { localizeDocument, type DocumentLanguage } from './openapi-localize.js';
import { documentRoute, namedSubschemas, requestBodyName, withoutNull, withRefs } from './openapi-route.js';

export interface OpenApiOptions {
  title: string;
  version: string;
  description: string;
  /** Where clients reach this app (PUBLIC_API_URL, PUBLIC_VAULT_URL). */
  serverUrl: string;
  /** Whether the app requires an API key (the API) or nothing (the vault). */
  apiKey: boolean;
  /** Serve the reference page at /docs. */
  ui: boolean;
  /** The `webhooks` section: the requests this service sends. */
  webhooks?: Record<string, unknown>;
  /** The document's other languages besides English, served as GET /openapi.json?lang=<language>. */
  languages?: Readonly<Record<string, DocumentLanguage>>;
}

/** Adds each named schema of a route as a shared schema, once per id. */
function collectNamedSchemas(app: FastifyInstance): void {
  const added = new Set<string>(Object.keys(app.getSchemas()));
  const add = (id: string, schema: unknown) => {
    if (added.has(id)) return;
    added.add(id);
    app.addSchema({ ...(withRefs(schema, true) as object), $id: id });
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as ({ hide?: boolean; operationId?: string; body?: unknown; response?: unknown } | undefined);
    if (!schema || schema.hide) return;
    for (const part of [schema.body, schema.response]) for (const [id, named] of namedSubschemas(part)) add(id, named);
    if (schema.body && schema.operationId) add(requestBodyName(schema.operationId), withoutNull(schema.body as Record<string, unknown>).schema);
  });
}

export async function installOpenApi(app: FastifyInstance, opts: OpenApiOptions): Promise<void> {
  app.addSchema(ErrorCodeSchema);
  app.addSchema(ErrorBodySchema);
  collectNamedSchemas(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: opts.title, version: opts.version, description: opts.description },
      servers: [{ url: opts.serverUrl }],
      components: opts.apiKey
        ? { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'svc_test_… (sandbox) or svc_live_… (production)' } } }
        : {},
      ...(opts.apiKey ? { security: [{ apiKey: [] }] } : {}),
      ...(opts.webhooks ? { webhooks: opts.webhooks } : {}),
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transform: documentRoute,
    transformObject: (documentObject) => finishDocument((documentObject as { openapiObject: Record<string, unknown> }).openapiObject) as never,
  });
  if (opts.ui) installDocsPage(app);
  const languages = opts.languages ?? {};
  const names = ['en', ...Object.keys(languages)];
  const querystring = Type.Object({ lang: Type.Optional(Type.Union(names.map((name) => Type.Literal(name)), { description: `${names.join(' or ')}; default en` })) });
  /** Each language's document, built on its first request (the English one is @fastify/swagger's, built once too). */
  const built = new Map<string, unknown>();
  app.get<{ Querystring: Static<typeof querystring> }>('/openapi.json', { schema: { hide: true, querystring } }, async (request) => {
    const { lang } = request.query;
    const language = lang === undefined ? undefined : languages[lang];
    if (lang === undefined || !language) return app.swagger();
    if (!built.has(lang)) built.set(lang, localizeDocument(app.swagger(), language).document);
    return built.get(lang);
  });
}
