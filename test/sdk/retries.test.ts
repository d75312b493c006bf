/**
 * The SDK's retries, Idempotency-Key and error handling against a local HTTP
 * stand-in for the API that answers as each test scripts it (a 503 first, a
 * 429 with Retry-After, a dropped connection …), since the real service
 * cannot be made to fail on demand.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, test } from 'node:test';
import { Svc, SvcApiError, SvcConnectionError, isSvcApiError, type ErrorCode as SdkErrorCode } from '../../packages/sdk/src/index.js';
import type { ErrorCode } from '../../src/lib/domain-error.js';
import { BUYER } from '../helpers/fixtures.js';

// The codes the SDK reads from the OpenAPI document are the service's, neither more nor fewer (a compile-time check).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameCodes: Same<SdkErrorCode, ErrorCode> = true;
void sameCodes;

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}
/** One scripted answer: a status, headers and a JSON body, or a connection dropped without an answer. */
type Answer = { status: number; headers?: Record<string, string>; body?: unknown } | 'drop';

let server: http.Server;
let baseUrl: string;
let seen: Seen[] = [];
let answers: Answer[] = [];

before(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body, at: Date.now() });
      const answer = answers.shift() ?? { status: 500, body: { code: 'INTERNAL_ERROR', message: 'no answer scripted' } };
      if (answer === 'drop') return req.socket.destroy();
      const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
      res.writeHead(answer.status, { 'content-type': 'application/json', 'x-request-id': `req-${seen.length}`, ...answer.headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  answers = [];
});

const client = (opts: { maxRetries?: number } = {}) => new Svc({ apiKey: 'svc_test_standin', baseUrl, retryBaseDelayMs: 20, ...opts });
const intent = { id: 'pi_1', status: 'REQUIRES_CONFIRMATION' };
const pix = { amountCents: 10_000, paymentMethod: 'PIX', referenceId: 'order-1', buyer: BUYER } as const;
const unavailable: Answer = { status: 503, body: { code: 'SERVICE_UNAVAILABLE', message: 'The database is unreachable' } };

test('a POST retried after a 503 carries the same Idempotency-Key; the next call gets a new one', async () => {
  answers = [unavailable, { status: 201, body: intent }, { status: 201, body: intent }];
  const svc = client();
  const created = await svc.paymentIntents.create(pix);
  assert.equal(created.id, 'pi_1');
  assert.equal(seen.length, 2, 'one retry after the 503');
  const [first, retry] = seen;
  assert.match(String(first!.headers['idempotency-key']), /^[0-9a-f-]{36}$/);
  assert.equal(retry!.headers['idempotency-key'], first!.headers['idempotency-key']);
  assert.equal(retry!.body, first!.body, 'the same body');
  assert.equal(first!.headers.authorization, 'Bearer svc_test_standin');
  assert.equal(first!.headers['content-type'], 'application/json');

  await svc.paymentIntents.create(pix);
  assert.notEqual(seen[2]!.headers['idempotency-key'], first!.headers['idempotency-key'], 'another logical call, another key');
});

test("the caller's own Idempotency-Key is sent, on every attempt; GET carries none", async () => {
  answers = [{ status: 502, body: { code: 'PROVIDER_ERROR', message: 'The acquirer did not answer' } }, { status: 201, body: intent }, { status: 200, body: intent }];
  const svc = client();
  await svc.paymentIntents.confirm('pi_1', undefined, { idempotencyKey: 'order-42-confirm' });
  assert.deepEqual(
    seen.map((s) => s.headers['idempotency-key']),
    ['order-42-confirm', 'order-42-confirm'],
  );
  assert.equal(seen[0]!.body, '', 'a confirm without a body sends none');
  assert.equal(seen[0]!.headers['content-type'], undefined);
  await svc.paymentIntents.get('pi_1');
  assert.equal(seen[2]!.headers['idempotency-key'], undefined);
});

test('a 429 is retried after its Retry-After', async () => {
  answers = [{ status: 429, headers: { 'retry-after': '1' }, body: { code: 'RATE_LIMITED', message: 'Too many requests' } }, { status: 200, body: intent }];
  await client().paymentIntents.get('pi_1');
  assert.equal(seen.length, 2);
  const waited = seen[1]!.at - seen[0]!.at;
  // The backoff alone would have waited 10 to 20 ms.
  assert.ok(waited >= 950, `waited ${waited} ms, Retry-After said 1 s`);
});

test('409 IDEMPOTENCY_KEY_IN_USE is retried; 409 INTENT_ALREADY_PROCESSED and other 4xx are not', async () => {
  answers = [{ status: 409, body: { code: 'IDEMPOTENCY_KEY_IN_USE', message: 'The first request is still running' } }, { status: 201, body: intent }];
  const svc = client();
  await svc.paymentIntents.confirm('pi_1');
  assert.equal(seen.length, 2);

  for (const [status, code] of [
    [409, 'INTENT_ALREADY_PROCESSED'],
    [422, 'IDEMPOTENCY_KEY_REUSED'],
    [404, 'NOT_FOUND'],
    [500, 'INTERNAL_ERROR'],
  ] as const) {
    seen = [];
    answers = [{ status, body: { code, message: code.toLowerCase() } }, { status: 201, body: intent }];
    const err = await svc.paymentIntents.confirm('pi_1').catch((e: unknown) => e);
    assert.ok(isSvcApiError(err, code), `${status} ${code}: ${String(err)}`);
    assert.equal(err.status, status);
    assert.equal(seen.length, 1, `${code} is not retried`);
  }
});

test('the error of the last attempt is thrown once the retries are spent, with its code, details and request id', async () => {
  answers = [unavailable, unavailable, { status: 503, headers: { 'retry-after': '0' }, body: { code: 'SERVICE_UNAVAILABLE', message: 'still down' } }];
  const err = await client({ maxRetries: 2 })
    .transactions.get('trx_1')
    .catch((e: unknown) => e);
  assert.equal(seen.length, 3, 'the first attempt and two retries');
  assert.ok(err instanceof SvcApiError);
  assert.equal(err.status, 503);
  assert.equal(err.code, 'SERVICE_UNAVAILABLE');
  assert.equal(err.message, 'still down');
  assert.deepEqual(err.details, []);
  assert.equal(err.requestId, 'req-3');
  assert.equal(err.retryAfterSeconds, 0);
});

test("a 502 without the API's body still has a code and a message", async () => {
  answers = [{ status: 502, headers: { 'content-type': 'text/html' } }];
  const err = await client({ maxRetries: 0 })
    .transactions.get('trx_1')
    .catch((e: unknown) => e);
  assert.ok(err instanceof SvcApiError);
  assert.equal(err.code, 'PROVIDER_ERROR');
  assert.match(err.message, /HTTP 502/);
});

test('a dropped connection is retried with the same key; without an answer at all, SvcConnectionError', async () => {
  answers = ['drop', { status: 201, body: intent }];
  await client().paymentIntents.create(pix);
  assert.equal(seen.length, 2);
  assert.equal(seen[1]!.headers['idempotency-key'], seen[0]!.headers['idempotency-key']);

  seen = [];
  answers = ['drop', 'drop'];
  const err = await client({ maxRetries: 1 })
    .paymentIntents.create(pix)
    .catch((e: unknown) => e);
  assert.ok(err instanceof SvcConnectionError, String(err));
  assert.match(err.message, /POST \/v2\/payment-intents: no answer/);
  assert.equal(seen.length, 2);
});

test("the caller's abort ends the retries", async () => {
  answers = [{ status: 429, headers: { 'retry-after': '5' }, body: { code: 'RATE_LIMITED', message: 'Too many requests' } }];
  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error('gave up')), 100);
  const started = Date.now();
  await assert.rejects(client().paymentIntents.get('pi_1', { signal: controller.signal }), /gave up/);
  assert.ok(Date.now() - started < 2_000, 'did not wait out the Retry-After');
  assert.equal(seen.length, 1);
});

test('list pages are asked with startingAfter = the last id of the page before, while hasMore', async () => {
  answers = [
    { status: 200, body: { data: [{ id: 'trx_5' }, { id: 'trx_4' }], hasMore: true } },
    { status: 200, body: { data: [{ id: 'trx_3' }, { id: 'trx_2' }], hasMore: true } },
    { status: 200, body: { data: [{ id: 'trx_1' }], hasMore: false } },
  ];
  const ids: string[] = [];
  for await (const trx of client().transactions.list({ limit: 2, status: 'PAID' })) ids.push(trx.id);
  assert.deepEqual(ids, ['trx_5', 'trx_4', 'trx_3', 'trx_2', 'trx_1']);
  assert.deepEqual(
    seen.map((s) => s.url),
    ['/v2/transactions?limit=2&status=PAID', '/v2/transactions?limit=2&status=PAID&startingAfter=trx_4', '/v2/transactions?limit=2&status=PAID&startingAfter=trx_2'],
  );
});
