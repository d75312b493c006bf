/**
 * The API reference: GET /openapi.json is OpenAPI 3.1.0 and documents every
 * /v2 route the app really serves, with its success status and its error
 * responses (ErrorBody); GET /docs renders it as HTML.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { API_VERSION } from '../../src/app.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/db.js';

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
  parameters?: { in: string; name: string; required?: boolean; schema?: { maxLength?: number } }[];
  security?: unknown[];
}
interface OpenApi {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
}

const ERROR_REF = '#/components/schemas/ErrorBody';
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** Every (method, path) the app serves, read from Fastify's own route tree. */
function servedRoutes(app: FastifyInstance): { method: string; path: string }[] {
  const out: { method: string; path: string }[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    for (const method of m[3]?.split(', ') ?? []) if (METHODS.has(method)) out.push({ method, path: stack.join('') });
  }
  return out;
}

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The success status the contract gives each kind of operation. */
function expectedSuccess(method: string, path: string): string {
  if (method === 'get') return '200';
  if (method === 'delete') return '204';
  if (path.startsWith('/v2/sandbox/') || path.endsWith('/cancel')) return '200';
  if (path.endsWith('/resend')) return '202';
  return '201';
}

describe('OpenAPI reference', () => {
  let t: TestApp;
  let spec: OpenApi;
  const v2Operations = () =>
    Object.entries(spec.paths)
      .filter(([path]) => path.startsWith('/v2/'))
      .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));

  before(async () => {
    t = await startTestApp(engines()[0]!);
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    spec = res.json<OpenApi>();
  });
  after(() => t.close());

  test('GET /openapi.json is OpenAPI 3.1.0 with the API version, and needs no key', () => {
    assert.equal(spec.openapi, '3.1.0');
    assert.equal(spec.info.version, API_VERSION);
    const body = spec.components.schemas.ErrorBody;
    assert.ok(body, 'ErrorBody schema');
    assert.deepEqual(Object.keys(body.properties ?? {}).sort(), ['code', 'details', 'message']);
    assert.deepEqual([...(body.required ?? [])].sort(), ['code', 'message']);
  });

  test('every /v2 route the app serves is documented, and every documented /v2 operation is served', () => {
    const served = servedRoutes(t.app).filter((r) => r.path.startsWith('/v2/'));
    const servedKeys = served.map((r) => `${r.method} ${r.path}`);
    for (const known of [
      'POST /v2/payment-intents',
      'GET /v2/payment-intents/:id',
      'POST /v2/payment-intents/:id/confirm',
      'POST /v2/payment-intents/:id/cancel',
      'GET /v2/transactions',
      'GET /v2/transactions/:id',
      'POST /v2/sandbox/transactions/:id/pay',
      'POST /v2/sandbox/transactions/:id/fail',
    ]) {
      assert.ok(servedKeys.includes(known), `the route tree reader found ${known} (found ${servedKeys.join(', ')})`);
    }
    for (const { method, path } of served) {
      assert.ok(spec.paths[toOpenApiPath(path)]?.[method.toLowerCase()], `${method} ${path} is missing from /openapi.json`);
    }
    for (const { path, method } of v2Operations()) {
      const url = path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
      assert.ok(t.app.hasRoute({ method: method.toUpperCase() as 'GET', url }), `${method} ${path} is documented but not served`);
    }
    assert.equal(v2Operations().length, served.length);
  });

  test('each /v2 operation documents its success status and its errors (401, 500, ... as ErrorBody)', () => {
    for (const { path, method, op } of v2Operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      const responses = op.responses ?? {};
      const success = expectedSuccess(method, path);
      assert.ok(responses[success], `${where} documents ${success} (has ${Object.keys(responses).join(', ')})`);
      assert.deepEqual(
        Object.keys(responses).filter((s) => s.startsWith('2')),
        [success],
        `${where} documents only its own success status`,
      );
      for (const status of ['401', '429', '500', '503']) {
        assert.equal(responses[status]?.content?.['application/json']?.schema?.$ref, ERROR_REF, `${where} ${status} → ErrorBody`);
      }
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) >= 400) assert.equal(response.content?.['application/json']?.schema?.$ref, ERROR_REF, `${where} ${status} → ErrorBody`);
      }
      if (path.includes('{id}')) {
        const id = op.parameters?.find((p) => p.in === 'path' && p.name === 'id');
        assert.ok(id?.required, `${where} documents its path id`);
        assert.equal(id.schema?.maxLength, 64);
        assert.ok(responses['400'] && responses['404'], `${where} documents 400 and 404`);
      }
      assert.notDeepEqual(op.security, [], `${where} requires the API key`);
    }
  });

  test('the create and confirm operations document their specific errors', () => {
    const create = spec.paths['/v2/payment-intents']!.post!.responses!;
    for (const status of ['400', '403', '422', '502']) assert.ok(create[status], `create documents ${status}`);
    const confirm = spec.paths['/v2/payment-intents/{id}/confirm']!.post!;
    for (const status of ['400', '404', '409', '502']) assert.ok(confirm.responses?.[status], `confirm documents ${status}`);
    assert.ok(confirm.parameters?.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key'), 'confirm documents Idempotency-Key');
  });

  test('health routes are documented without a key', () => {
    for (const path of ['/healthz', '/readyz']) assert.deepEqual(spec.paths[path]?.get?.security, [], `${path} is public`);
  });

  test('GET /docs answers HTML (directly or by redirect)', async () => {
    let res = await t.app.inject({ method: 'GET', url: '/docs' });
    for (let hops = 0; res.statusCode >= 300 && res.statusCode < 400 && hops < 3; hops++) {
      const location = String(res.headers.location);
      res = await t.app.inject({ method: 'GET', url: new URL(location, 'http://localhost/docs/').pathname });
    }
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<html/i);
    const json = await t.app.inject({ method: 'GET', url: '/docs/json' });
    assert.equal(json.statusCode, 200);
    assert.equal(json.json<OpenApi>().openapi, '3.1.0');
  });
});
