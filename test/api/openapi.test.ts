/**
 * The API reference: GET /openapi.json is OpenAPI 3.1.0 and documents every
 * /v2 route the app really serves, with its success status and its error
 * responses (Error, with the codes of each status); GET /docs serves the page
 * that renders it. What a generated client relies on is checked here too: operationIds,
 * named schemas, Idempotency-Key, optional bodies, response headers the app
 * really sends, typed enums, servers, webhooks, and examples that succeed.
 * The vault serves its own document.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import * as ajvFormats from 'ajv-formats';
import { OpenAPIBackend } from 'openapi-backend';
import { API_VERSION } from '../../src/http/api-guide.js';
import { STATUS_BY_CODE } from '../../src/http/errors.js';
import { RESPONSE_HEADERS } from '../../src/http/openapi-document.js';
import { EVENT_TYPES } from '../../src/modules/events/index.js';
import { RECIPIENTS, startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/db.js';
import { pixIntent } from '../helpers/fixtures.js';

interface Schema {
  $ref?: string;
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  examples?: unknown[];
}
interface Response {
  description: string;
  content?: Record<string, { schema?: Schema }>;
  headers?: Record<string, { $ref?: string }>;
}
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: Schema; examples?: Record<string, { value: unknown }> }> };
  responses?: Record<string, Response>;
  parameters?: { in: string; name: string; required?: boolean; schema?: { maxLength?: number } }[];
  security?: unknown[];
}
interface OpenApi {
  openapi: string;
  info: { version: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, { post?: Operation }>;
  components: { schemas: Record<string, Schema>; headers?: Record<string, unknown> };
}

const ERROR_REF = '#/components/schemas/Error';
// ajv-formats is CommonJS; under ESM its function arrives as the `default` export.
const addFormats = ajvFormats.default as unknown as <T>(ajv: T) => T;
const errorRefOf = (response: Response | undefined) => response?.content?.['application/json']?.schema?.allOf?.[0]?.$ref;
const codesOf = (response: Response | undefined) => response?.content?.['application/json']?.schema?.allOf?.[1]?.properties?.code?.enum ?? [];
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
  if (path.startsWith('/v2/sandbox/') || path.endsWith('/cancel') || path.endsWith('/enable')) return '200';
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
    const body = spec.components.schemas.Error;
    assert.ok(body, 'Error schema');
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

  test('each /v2 operation documents its success status and its errors (401, 500, ... as Error with their codes)', () => {
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
      for (const status of ['401', '429', '500', '503']) assert.equal(errorRefOf(responses[status]), ERROR_REF, `${where} ${status} → Error`);
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) < 400) continue;
        assert.equal(errorRefOf(response), ERROR_REF, `${where} ${status} → Error`);
        const codes = codesOf(response);
        assert.ok(codes.length > 0, `${where} ${status} lists its codes`);
        for (const code of codes) assert.equal(STATUS_BY_CODE[code as keyof typeof STATUS_BY_CODE], Number(status), `${where}: ${String(code)} is a ${status}`);
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

  const operations = () =>
    Object.entries(spec.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op, where: `${method.toUpperCase()} ${path}` })));
  const operation = (operationId: string) => {
    const found = operations().find((o) => o.op.operationId === operationId);
    assert.ok(found, `operation ${operationId}`);
    return found;
  };
  const successSchemaRef = (op: Operation) =>
    Object.entries(op.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1].content?.['application/json']?.schema?.$ref;

  test('every operation has a unique camelCase operationId, tags, a summary, and described responses', () => {
    const ids = operations().map((o) => o.op.operationId);
    assert.equal(new Set(ids).size, ids.length, `unique operationIds: ${ids.join(', ')}`);
    for (const { op, where } of operations()) {
      assert.match(String(op.operationId), /^[a-z][A-Za-z]+$/, `${where} operationId`);
      assert.ok(op.tags?.length, `${where} tags`);
      assert.ok(op.summary, `${where} summary`);
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        assert.ok(response.description && response.description !== 'Default Response', `${where} ${status} has a real description`);
      }
    }
  });

  test('resources are named schemas referenced with $ref', () => {
    for (const name of ['PaymentIntent', 'Transaction', 'Receivable', 'Refund', 'PaymentLink', 'Webhook', 'CreatedWebhook', 'WebhookDelivery', 'Event', 'Error', 'ErrorCode', 'Buyer', 'SplitRule']) {
      assert.ok(spec.components.schemas[name], `components.schemas.${name}`);
    }
    const expected: Record<string, string> = {
      createPaymentIntent: 'PaymentIntent',
      getPaymentIntent: 'PaymentIntent',
      confirmPaymentIntent: 'Transaction',
      listTransactions: 'TransactionPage',
      listReceivables: 'ReceivablePage',
      getRefund: 'Refund',
      listPaymentLinks: 'PaymentLinkPage',
      createWebhook: 'CreatedWebhook',
      listWebhookDeliveries: 'WebhookDeliveryPage',
      getEvent: 'Event',
    };
    for (const [operationId, name] of Object.entries(expected)) {
      assert.equal(successSchemaRef(operation(operationId).op), `#/components/schemas/${name}`, operationId);
    }
    assert.equal(spec.components.schemas.PaymentIntent!.properties!.transaction!.$ref, '#/components/schemas/Transaction');
    assert.deepEqual([...(spec.components.schemas.ErrorCode!.enum ?? [])].sort(), Object.keys(STATUS_BY_CODE).sort());
  });

  test('Idempotency-Key is required on confirm and refunds, optional on the other POSTs, and acted on as documented', async () => {
    for (const { op, method, where } of operations().filter((o) => o.path.startsWith('/v2/'))) {
      const key = op.parameters?.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      if (method !== 'post' || where.includes('/resend') || where.includes('/provider-notifications/')) {
        assert.equal(key, undefined, `${where} takes no Idempotency-Key`);
        continue;
      }
      assert.ok(key, `${where} documents Idempotency-Key`);
      assert.equal(key.required, ['confirmPaymentIntent', 'createRefund'].includes(op.operationId!), `${where}: Idempotency-Key required?`);
      assert.ok(op.responses?.['422'] && codesOf(op.responses['422']).includes('IDEMPOTENCY_KEY_REUSED'), `${where} documents IDEMPOTENCY_KEY_REUSED`);
    }
    const created = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ referenceId: 'oa-key' }) });
    assert.equal(created.statusCode, 201, 'the documented optional key is optional');
    const refused = await t.call({ method: 'POST', url: `/v2/payment-intents/${created.json().id}/confirm` });
    assert.equal(refused.statusCode, 400, 'the documented required key is required');
  });

  test('bodies that may be absent are not required, and a Pix confirm without a body succeeds', async () => {
    for (const operationId of ['confirmPaymentIntent', 'createRefund', 'resendEvent']) {
      assert.equal(operation(operationId).op.requestBody?.required, false, `${operationId} body is optional`);
    }
    for (const operationId of ['createPaymentIntent', 'createWebhook', 'createPaymentLink']) {
      assert.equal(operation(operationId).op.requestBody?.required, true, `${operationId} body is required`);
    }
    assert.equal(operation('cancelPaymentIntent').op.requestBody, undefined, 'cancel takes no body');
    const created = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ referenceId: 'oa-nobody' }) });
    const confirmed = await t.call({ method: 'POST', url: `/v2/payment-intents/${created.json().id}/confirm`, headers: { 'idempotency-key': 'oa-nobody' } });
    assert.equal(confirmed.statusCode, 201, confirmed.body);
  });

  test('documented response headers are the ones the app sends; 413 on every operation with a body', async () => {
    const ref = (name: string) => `#/components/headers/${name}`;
    for (const { op, method, where } of operations()) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        assert.equal(response.headers?.['X-Request-Id']?.$ref, ref('X-Request-Id'), `${where} ${status} X-Request-Id`);
        if (status === '429' || status === '503') assert.equal(response.headers?.['Retry-After']?.$ref, ref('Retry-After'), `${where} ${status} Retry-After`);
      }
      if (op.requestBody) assert.ok(codesOf(op.responses?.['413']).includes('PAYLOAD_TOO_LARGE'), `${where} documents 413`);
      if (method === 'post' && op.parameters?.some((p) => p.name === 'Idempotency-Key')) {
        assert.ok(Object.entries(op.responses ?? {}).some(([s, r]) => s.startsWith('2') && r.headers?.['Idempotent-Replayed']), `${where} Idempotent-Replayed`);
      }
    }
    const list = operation('listTransactions').op.responses!['200']!;
    const res = await t.call({ method: 'GET', url: '/v2/transactions' });
    for (const name of Object.keys(list.headers ?? {})) assert.ok(res.headers[name.toLowerCase()] !== undefined, `GET /v2/transactions sends ${name}`);
    for (const name of Object.keys(spec.components.headers ?? {})) assert.ok(name in RESPONSE_HEADERS, `${name} is a known header`);
    const tooLarge = await t.call({ method: 'POST', url: '/v2/webhooks', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ url: 'x'.repeat(1_100_000) }) });
    assert.equal(tooLarge.statusCode, 413);
    assert.equal(tooLarge.json().code, 'PAYLOAD_TOO_LARGE');
  });

  test('every enum states its type; servers is PUBLIC_API_URL; webhooks describes each event type', () => {
    const untyped: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${at}/${i}`));
      if (typeof node !== 'object' || node === null) return;
      const record = node as Record<string, unknown>;
      if (Array.isArray(record.enum) && record.type === undefined) untyped.push(at);
      for (const [key, value] of Object.entries(record)) if (key !== 'examples' && key !== 'example') walk(value, `${at}/${key}`);
    };
    walk(spec, '#');
    assert.deepEqual(untyped, []);
    assert.deepEqual(spec.servers, [{ url: t.deps.config.publicApiUrl }]);
    assert.deepEqual(Object.keys(spec.webhooks ?? {}).sort(), [...EVENT_TYPES].sort());
    for (const [type, item] of Object.entries(spec.webhooks ?? {})) {
      const names = item.post?.parameters?.map((p) => p.name) ?? [];
      for (const header of ['X-Svc-Event-Id', 'X-Svc-Event', 'X-Svc-Timestamp', 'X-Svc-Signature']) assert.ok(names.includes(header), `${type} documents ${header}`);
      const schema = item.post?.requestBody?.content['application/json']?.schema;
      assert.equal(schema?.allOf?.[0]?.$ref, '#/components/schemas/Event', `${type} body is the Event`);
    }
  });

  test('every request body example succeeds against the sandbox', async () => {
    const examples = (operationId: string) =>
      Object.values(operation(operationId).op.requestBody?.content['application/json']?.examples ?? {}).map((e) => e.value as Record<string, unknown>);
    const send = (method: 'POST', url: string, payload: unknown, key?: string) =>
      t.call({ method, url, headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) }, payload: JSON.stringify(payload) });
    const intents = examples('createPaymentIntent');
    assert.ok(intents.length >= 3, 'an example per payment method');
    let paidTransaction = '';
    for (const example of intents) {
      const res = await send('POST', '/v2/payment-intents', example);
      assert.equal(res.statusCode, 201, res.body);
      if (example.paymentMethod === 'PIX') paidTransaction = res.json().transaction.id;
    }
    for (const example of examples('confirmPaymentIntent')) {
      const created = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ referenceId: 'oa-example' }) });
      const res = await send('POST', `/v2/payment-intents/${created.json().id}/confirm`, example, 'oa-example');
      assert.equal(res.statusCode, 201, res.body);
    }
    for (const example of examples('createPaymentLink')) assert.equal((await send('POST', '/v2/payment-links', example)).statusCode, 201);
    for (const example of examples('createWebhook')) assert.equal((await send('POST', '/v2/webhooks', example)).statusCode, 201);
    assert.equal((await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${paidTransaction}/pay` })).statusCode, 200);
    for (const example of examples('createRefund')) {
      const res = await send('POST', `/v2/transactions/${paidTransaction}/refunds`, example, `oa-refund-${JSON.stringify(example)}`);
      assert.equal(res.statusCode, 201, res.body);
    }
    const event = (await t.call({ method: 'GET', url: '/v2/events?limit=1' })).json().data[0].id;
    for (const example of examples('resendEvent')) assert.equal((await send('POST', `/v2/events/${event}/resend`, example)).statusCode, 202);
  });

  test('real responses, successes and errors, validate against the documented schemas (openapi-backend)', async () => {
    // quick: openapi-backend checks documents against OpenAPI 3.0's schema, which has no `webhooks` or `propertyNames`; Redocly lints the 3.1 document.
    const api = new OpenAPIBackend({ definition: structuredClone(spec) as never, strict: true, quick: true, validate: true, customizeAjv: (ajv) => addFormats(ajv) });
    await api.init();
    const check = (operationId: string, res: { statusCode: number; body: string }) => {
      const result = api.validateResponse(res.body ? JSON.parse(res.body) : undefined, operationId, res.statusCode);
      assert.equal(result.errors, null, `${operationId} ${res.statusCode}: ${JSON.stringify(result.errors)} for ${res.body.slice(0, 300)}`);
    };
    const pix = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ referenceId: 'oa-valid', confirm: true, splitRules: [{ recipientDocument: RECIPIENTS[0], type: 'PERCENTAGE', percentage: 10 }] }) });
    check('createPaymentIntent', pix);
    check('createPaymentIntent', await t.call({ method: 'POST', url: '/v2/payment-intents', payload: { ...pixIntent(), paymentMethod: 'CREDIT_CARD', referenceId: 'oa-card' } }));
    const trx = pix.json().transaction.id;
    check('payTransactionInSandbox', await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${trx}/pay` }));
    check('getTransaction', await t.call({ method: 'GET', url: `/v2/transactions/${trx}` }));
    check('listTransactions', await t.call({ method: 'GET', url: '/v2/transactions?limit=3' }));
    check('listReceivables', await t.call({ method: 'GET', url: '/v2/receivables' }));
    check('createRefund', await t.call({ method: 'POST', url: `/v2/transactions/${trx}/refunds`, headers: { 'idempotency-key': 'oa-valid-refund' }, payload: { amountCents: 100 } }));
    check('listEvents', await t.call({ method: 'GET', url: '/v2/events' }));
    check('createWebhook', await t.call({ method: 'POST', url: '/v2/webhooks', payload: { url: 'https://example.com/h', events: ['transaction.paid'] } }));
    check('listWebhooks', await t.call({ method: 'GET', url: '/v2/webhooks' }));
    check('createPaymentLink', await t.call({ method: 'POST', url: '/v2/payment-links', payload: { amountCents: 1000, description: 'x', paymentMethods: ['PIX'] } }));
    check('createPaymentIntent', await t.call({ method: 'POST', url: '/v2/payment-intents', payload: { amountCents: 'x' } }));
    check('getTransaction', await t.call({ method: 'GET', url: '/v2/transactions/trx_00000000000000000000000000' }));
    check('getTransaction', await t.call({ method: 'GET', url: `/v2/transactions/${trx}`, headers: { authorization: 'Bearer nope' } }));
    assert.ok(api.validateResponse({ id: trx }, 'getTransaction', 200).errors?.length, 'a body that lacks fields is refused (the check is not vacuous)');
    assert.ok(api.validateResponse({ code: 'NOT_FOUND', message: 'x' }, 'createWebhook', 409).errors?.length, 'a code the status does not list is refused');
  });

  test("the vault serves its own document: tokenize, keys, sdk.js, and no internal route", async () => {
    const res = await t.vaultApp.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(res.statusCode, 200);
    const vault = res.json<OpenApi>();
    assert.equal(vault.openapi, '3.1.0');
    const ids = Object.values(vault.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    for (const id of ['tokenizeCard', 'listVaultKeys', 'getVaultSdk', 'getLiveness']) assert.ok(ids.includes(id), `vault documents ${id}`);
    assert.equal(vault.paths['/internal/authorize'], undefined);
    const tokenize = vault.paths['/tokenize']!.post!;
    assert.deepEqual(tokenize.security ?? [], [], 'no API key on the vault');
    assert.equal((vault as { security?: unknown }).security, undefined);
    assert.deepEqual(codesOf(tokenize.responses!['401']), ['TICKET_EXPIRED']);
    assert.equal(successSchemaRef(tokenize), '#/components/schemas/VaultToken');
  });

  test('GET /docs answers our reference page (rendered from /openapi.json, see test/e2e/docs.browser.test.ts)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<script src="\/docs\/docs.js" defer><\/script>/);
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
    for (const asset of ['/docs/docs.js', '/docs/docs.css']) assert.equal((await t.app.inject({ method: 'GET', url: asset })).statusCode, 200, asset);
  });
});
