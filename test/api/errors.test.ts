/**
 * The error contract over HTTP: validation details with dotted field paths,
 * malformed and oversized bodies, unknown routes, the exact error body shape,
 * X-Request-Id, and a fuzz pass showing no input produces a 500.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { frameworkErrors, installErrorHandler } from '../../src/http/error-handler.js';
import { redactQuery, serializeRequest } from '../../src/http/log-serializers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/db.js';
import { assertError, assertErrorBody, fieldsOf } from '../helpers/assert.js';
import { rawHttp } from '../helpers/raw-http.js';
import { BUYER, boletoIntent, cardIntent, pixIntent } from '../helpers/fixtures.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INTENT_FIELDS = ['amountCents', 'paymentMethod', 'confirm', 'referenceId', 'buyer', 'splitRules', 'installments', 'description', 'metadata', 'pix', 'boleto'];

for (const engine of engines()) {
  describe(`errors (${engine})`, () => {
    let t: TestApp;
    const post = (payload: unknown, headers: Record<string, string> = {}) =>
      t.call({ method: 'POST', url: '/v2/payment-intents', payload: payload as object, headers });
    const countIntents = async () =>
      Number((await t.db.db.selectFrom('payment_intents').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    before(async () => {
      t = await startTestApp(engine);
    });
    after(() => t.close());

    test('an unknown body field is 400 VALIDATION_ERROR naming it', async () => {
      const body = assertError(await post(pixIntent({ amountCent: 100 })), 400, 'VALIDATION_ERROR');
      assert.ok(fieldsOf(body).includes('amountCent'), JSON.stringify(body));
      const nested = assertError(await post(pixIntent({ buyer: { ...BUYER, nickname: 'Mari' } })), 400, 'VALIDATION_ERROR');
      assert.deepEqual(fieldsOf(nested), ['buyer.nickname']);
    });

    test('wrong types name the dotted field, and every invalid field is listed', async () => {
      const res = await post(
        boletoIntent({
          amountCents: '10000',
          buyer: { ...BUYER, email: 42, address: { ...BUYER.address, zipCode: 1304000 } },
          splitRules: [{ recipientDocument: '52998224725', type: 'SHARE', percentage: 10 }],
        }),
      );
      const body = assertError(res, 400, 'VALIDATION_ERROR');
      const fields = fieldsOf(body);
      for (const field of ['amountCents', 'buyer.email', 'buyer.address.zipCode', 'splitRules[0].type']) {
        assert.ok(fields.includes(field), `${field} missing from ${JSON.stringify(fields)}`);
      }
      assert.equal(new Set(fields).size, fields.length, 'one detail per field');
      for (const field of fields) assert.ok(body.message.includes(field), `message names ${field}`);
    });

    test('a missing required field and a wrong enum are both reported', async () => {
      const { referenceId: _omit, ...withoutReference } = pixIntent({ paymentMethod: 'CASH' });
      const body = assertError(await post(withoutReference), 400, 'VALIDATION_ERROR');
      assert.deepEqual(fieldsOf(body).sort(), ['paymentMethod', 'referenceId']);
    });

    test('malformed JSON is 400 on field body', async () => {
      const res = await t.call({ method: 'POST', url: '/v2/payment-intents', headers: { 'content-type': 'application/json' }, payload: '{"amountCents": 100,' });
      const body = assertError(res, 400, 'VALIDATION_ERROR');
      assert.deepEqual(fieldsOf(body), ['body']);
    });

    test('a body over 1 MiB is 413 PAYLOAD_TOO_LARGE; just under the limit is judged on its content', async () => {
      const big = JSON.stringify(pixIntent({ description: 'x'.repeat(1024 * 1024) }));
      assert.ok(Buffer.byteLength(big) > 1024 * 1024);
      assertError(await t.call({ method: 'POST', url: '/v2/payment-intents', headers: { 'content-type': 'application/json' }, payload: big }), 413, 'PAYLOAD_TOO_LARGE');
      const under = JSON.stringify(pixIntent({ description: 'x'.repeat(1024 * 1024 - 400) }));
      assert.ok(Buffer.byteLength(under) <= 1024 * 1024);
      const body = assertError(await t.call({ method: 'POST', url: '/v2/payment-intents', headers: { 'content-type': 'application/json' }, payload: under }), 400, 'VALIDATION_ERROR');
      assert.deepEqual(fieldsOf(body), ['description']);
    });

    test('a non-JSON content type is 400', async () => {
      const xml = await t.call({ method: 'POST', url: '/v2/payment-intents', headers: { 'content-type': 'application/xml' }, payload: '<intent/>' });
      assert.deepEqual(fieldsOf(assertError(xml, 400, 'VALIDATION_ERROR')), ['Content-Type']);
      const form = await t.call({ method: 'POST', url: '/v2/payment-intents', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'amountCents=100' });
      assertError(form, 400, 'VALIDATION_ERROR');
      // text/plain carrying perfectly valid JSON is still not a JSON request.
      const text = await t.call({ method: 'POST', url: '/v2/payment-intents', headers: { 'content-type': 'text/plain' }, payload: JSON.stringify(pixIntent()) });
      assertError(text, 400, 'VALIDATION_ERROR');
    });

    test('a path id over 64 characters is 400 on field id; 64 characters is a plain 404', async () => {
      const long = `pi_${'a'.repeat(62)}`;
      assert.equal(long.length, 65);
      for (const url of [`/v2/payment-intents/${long}`, `/v2/transactions/${long}`]) {
        assert.deepEqual(fieldsOf(assertError(await t.call({ method: 'GET', url }), 400, 'VALIDATION_ERROR')), ['id']);
      }
      const confirm = await t.call({ method: 'POST', url: `/v2/payment-intents/${long}/confirm`, headers: { 'idempotency-key': 'long-id' } });
      assert.ok(fieldsOf(assertError(confirm, 400, 'VALIDATION_ERROR')).includes('id'));
      assertError(await t.call({ method: 'GET', url: `/v2/payment-intents/${long.slice(0, 64)}` }), 404, 'NOT_FOUND');
    });

    test('URLs the router refuses (bad percent-encoding, a path id over 500 characters) are 400 VALIDATION_ERROR with X-Request-Id', async () => {
      const bad = await t.call({ method: 'GET', url: '/v2/payment-intents/%E0%A4%A' });
      assert.deepEqual(fieldsOf(assertError(bad, 400, 'VALIDATION_ERROR')), ['path']);
      assert.ok(bad.headers['x-request-id']);
      const huge = await t.call({ method: 'GET', url: `/v2/payment-intents/pi_${'a'.repeat(600)}` });
      assert.deepEqual(fieldsOf(assertError(huge, 400, 'VALIDATION_ERROR')), ['id']);
    });

    test('a bodiless confirm sent as text/plain (what fetch sends for an empty string) is accepted; a text/plain body is refused', async () => {
      const created = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent() });
      const id = JSON.parse(created.body).id;
      const plain = await t.call({ method: 'POST', url: `/v2/payment-intents/${id}/confirm`, headers: { 'content-type': 'text/plain;charset=UTF-8', 'idempotency-key': 'plain-empty' }, payload: '' });
      assert.equal(plain.statusCode, 201, plain.body);
      const text = await t.call({ method: 'POST', url: '/v2/payment-intents', headers: { 'content-type': 'text/plain' }, payload: JSON.stringify(pixIntent()) });
      assert.deepEqual(fieldsOf(assertError(text, 400, 'VALIDATION_ERROR')), ['Content-Type']);
    });

    test('an unknown route is 404 NOT_FOUND with the error body', async () => {
      assertError(await t.call({ method: 'GET', url: '/v2/nothing-here' }), 404, 'NOT_FOUND');
      assertError(await t.app.inject({ method: 'POST', url: '/' }), 404, 'NOT_FOUND'); // GET / points to /docs
      assertError(await t.call({ method: 'DELETE', url: '/v2/payment-intents' }), 404, 'NOT_FOUND');
    });

    test('every response carries X-Request-Id: a valid incoming one is echoed, an invalid one replaced', async () => {
      const ok = await t.call({ method: 'GET', url: '/v2/transactions', headers: { 'x-request-id': 'req-123.abc:XYZ_9' } });
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.headers['x-request-id'], 'req-123.abc:XYZ_9');
      const err = await t.call({ method: 'GET', url: '/v2/nothing-here', headers: { 'x-request-id': 'trace-42' } });
      assert.equal(err.headers['x-request-id'], 'trace-42');
      for (const bad of ['has spaces in it', 'a'.repeat(129), 'semi;colon', '']) {
        const res = await t.call({ method: 'GET', url: '/v2/transactions', headers: { 'x-request-id': bad } });
        assert.notEqual(res.headers['x-request-id'], bad);
        assert.match(String(res.headers['x-request-id']), UUID);
      }
      const a = await t.app.inject({ method: 'GET', url: '/healthz' });
      const b = await t.app.inject({ method: 'GET', url: '/healthz' });
      assert.match(String(a.headers['x-request-id']), UUID);
      assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id'], 'generated ids are unique');
    });

    test('a request rejected by validation writes no row', async () => {
      const before = await countIntents();
      assertError(await post(pixIntent({ amountCents: -5 })), 400, 'VALIDATION_ERROR');
      // Rejected by the service's own rules (CPF check digits), after the schema passed.
      assertError(await post(pixIntent({ buyer: { ...BUYER, document: '52998224724' } })), 400, 'VALIDATION_ERROR');
      assertError(await post(cardIntent({ confirm: true }), { 'idempotency-key': 'rejected-1' }), 400, 'VALIDATION_ERROR');
      assert.equal(await countIntents(), before);
      const created = await post(pixIntent());
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(await countIntents(), before + 1, 'the control request does write a row');
    });

    test('NUL in any string input is 400 VALIDATION_ERROR naming the field, never a 500', async () => {
      const nul = 'a\u0000b';
      const cases: [string, Parameters<TestApp['call']>[0]][] = [
        ['buyer.name', { method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ buyer: { ...BUYER, name: nul } }) }],
        ['description', { method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ description: nul }) }],
        ['metadata.order', { method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ metadata: { order: nul } }) }],
        ['metadata', { method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ metadata: { [nul]: 'x' } }) }],
        ['description', { method: 'POST', url: '/v2/webhooks', payload: { url: 'https://example.com/hook', events: ['transaction.paid'], description: nul } }],
        ['referenceId', { method: 'GET', url: '/v2/transactions?referenceId=%00' }],
        ['startingAfter', { method: 'GET', url: '/v2/transactions?startingAfter=trx_%00' }],
        ['id', { method: 'GET', url: '/v2/payment-intents/pi_%00' }],
        ['Idempotency-Key', { method: 'POST', url: '/v2/payment-intents', payload: pixIntent(), headers: { 'idempotency-key': nul } }],
      ];
      for (const [field, request] of cases) {
        const res = await t.call(request);
        assert.deepEqual(fieldsOf(assertError(res, 400, 'VALIDATION_ERROR')), [field], `${request.method} ${request.url}: ${res.body}`);
      }
    });

    test('a lone surrogate in a string is 400 VALIDATION_ERROR; a surrogate pair (an emoji) is text', async () => {
      const lone = await t.call({ method: 'POST', url: '/v2/payment-intents', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(pixIntent({ description: 'X' })).replace('"X"', '"\\ud800"') });
      assert.deepEqual(fieldsOf(assertError(lone, 400, 'VALIDATION_ERROR')), ['description']);
      const query = await t.call({ method: 'GET', url: '/v2/transactions?referenceId=%ED%A0%80' });
      assert.ok(query.statusCode < 500, query.body);
      const emoji = await post(pixIntent({ description: 'pago \u{1F600}' }));
      assert.equal(emoji.statusCode, 201, emoji.body);
    });

    test('JSON nested deeper than 32 levels is 400 before anything recursive runs, with or without Idempotency-Key', async () => {
      const id = (await post(pixIntent())).json<{ id: string }>().id;
      const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
      for (const url of ['/v2/payment-intents', `/v2/payment-intents/${id}/confirm`, `/v2/payment-intents/${id}/cancel`]) {
        const res = await t.call({ method: 'POST', url, headers: { 'content-type': 'application/json', 'idempotency-key': `deep-${url}` }, payload: deep });
        assertError(res, 400, 'VALIDATION_ERROR');
      }
      let nested: unknown = 'x';
      for (let i = 0; i < 40; i++) nested = { a: nested };
      const metadata = await post(pixIntent({ metadata: nested }));
      assert.match(assertError(metadata, 400, 'VALIDATION_ERROR').message, /deeper than 32/);
    });

    test('a route without a body refuses one as an unknown field; no body and {} are both accepted', async () => {
      const cancel = async (payload?: string) => {
        const id = (await post(pixIntent())).json<{ id: string }>().id;
        return t.call({ method: 'POST', url: `/v2/payment-intents/${id}/cancel`, headers: { 'content-type': 'application/json' }, ...(payload === undefined ? {} : { payload }) });
      };
      assert.deepEqual(fieldsOf(assertError(await cancel('{"foo":1}'), 400, 'VALIDATION_ERROR')), ['foo']);
      assertError(await cancel('[1]'), 400, 'VALIDATION_ERROR', 'body');
      assertError(await cancel('"x"'), 400, 'VALIDATION_ERROR', 'body');
      assert.equal((await cancel()).statusCode, 200);
      assert.equal((await cancel('{}')).statusCode, 200);

      const confirmed = await post(pixIntent({ confirm: true }));
      const trx = confirmed.json<{ transaction: { id: string } }>().transaction.id;
      const pay = await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${trx}/pay`, payload: { foo: 1 } });
      assert.deepEqual(fieldsOf(assertError(pay, 400, 'VALIDATION_ERROR')), ['foo']);
      const paid = await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${trx}/pay`, payload: {} });
      assert.equal(paid.statusCode, 200, paid.body);
    });

    test('requests the HTTP parser refuses get the error body and X-Request-Id', async () => {
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = new URL(address);
      // A method llhttp knows but no route serves (PURGE) reaches the router: the contract's 404.
      const requests = [
        ['GET /v2/transactions HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n', 400, 'VALIDATION_ERROR', 'headers'],
        ['FOO /v2/transactions HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'VALIDATION_ERROR', 'method'],
        ['GET /v2/trans actions HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'VALIDATION_ERROR', undefined],
        ['GARBAGE\r\n\r\n', 400, 'VALIDATION_ERROR', undefined],
        ['PURGE /v2/transactions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 404, 'NOT_FOUND', undefined],
        // CONNECT never reaches the router; without an answer Node would close the socket silently.
        ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 404, 'NOT_FOUND', undefined],
      ] as const;
      for (const [raw, status, code, field] of requests) {
        const { response, text } = await rawHttp(Number(port), Buffer.from(raw, 'latin1'));
        assert.equal(response?.status, status, `${JSON.stringify(raw)}: ${text}`);
        assert.match(response.headers['x-request-id'] ?? '', /^[0-9a-f-]{36}$/, text);
        assert.match(response.headers['content-type'] ?? '', /^application\/json/, text);
        const body = JSON.parse(response.body) as unknown;
        assertErrorBody(body);
        assert.equal(body.code, code);
        if (field) assert.deepEqual(fieldsOf(body), [field]);
      }
    });

    test('fuzz: random bodies, ids and queries never produce a 500, always an error body or a 2xx', async () => {
      const real = (await post(pixIntent({ referenceId: 'fuzz-target' }))).json<{ id: string }>().id;
      const plausible = fc.oneof(
        fc.anything(),
        fc.constantFrom<unknown>(10_000, 50_200, 0, -1, 1.5, 1e20, 'PIX', 'BOLETO', 'CREDIT_CARD', true, null, [], {}, BUYER, 'x'.repeat(300)),
      );
      const intentLike = fc.record(Object.fromEntries(INTENT_FIELDS.map((f) => [f, plausible])), { requiredKeys: [] });
      const mutated = fc
        .tuple(fc.constantFrom(...INTENT_FIELDS, 'buyer.email', 'buyer.document', 'buyer.address', 'buyer.phone', 'boleto.dueDate', 'pix.expiresInSeconds'), plausible)
        .map(([path, value]) => {
          const body: Record<string, unknown> = { ...pixIntent(), buyer: { ...BUYER } };
          const [head, tail] = path.split('.') as [string, string | undefined];
          if (tail) body[head] = { ...((body[head] as object | undefined) ?? {}), [tail]: value };
          else body[head] = value;
          return body;
        });
      const valid = fc.constantFrom<unknown>(pixIntent(), pixIntent({ confirm: true }), boletoIntent({ confirm: true }), pixIntent({ amountCents: 50_200, confirm: true }));
      const body = fc.oneof(fc.anything(), intentLike, mutated, valid, fc.constant(undefined));
      const confirmBody = fc.oneof(fc.anything(), fc.constant(undefined), fc.record({ token: fc.oneof(fc.string(), fc.constant('vtk_abc')) }));
      const rawPayload = fc.option(fc.string({ maxLength: 40 }), { nil: undefined });
      const id = fc.oneof(
        fc.string({ maxLength: 90 }),
        fc.string({ unit: 'grapheme', maxLength: 70 }),
        fc.constantFrom(real, 'pi_00000000000000000000000000', 'trx_', `pi_${'z'.repeat(80)}`, '..', '%00'),
      );
      const query = fc.dictionary(fc.constantFrom('limit', 'startingAfter', 'status', 'paymentMethod', 'referenceId', 'createdFrom', 'createdTo', 'other'), fc.string({ maxLength: 30 }), { maxKeys: 4 });

      let n = 0;
      const statuses = new Set<number>();
      const check = (res: LightMyRequestResponse, what: string) => {
        statuses.add(res.statusCode);
        assert.notEqual(res.statusCode, 500, `${what}: ${res.body}`);
        assert.ok(res.headers['x-request-id'], `${what}: X-Request-Id`);
        if (res.statusCode >= 200 && res.statusCode < 300) return;
        assert.ok(res.statusCode >= 400, `${what}: unexpected ${res.statusCode}`);
        assertErrorBody(res.json());
      };
      await fc.assert(
        fc.asyncProperty(body, rawPayload, id, confirmBody, query, async (b, raw, pathId, confirmBody, q) => {
          n++;
          const json = b === undefined ? undefined : JSON.stringify(b);
          check(await t.call({ method: 'POST', url: '/v2/payment-intents', headers: { 'content-type': 'application/json' }, ...(json === undefined ? {} : { payload: json }) }), `create ${json}`);
          if (raw !== undefined) {
            check(await t.call({ method: 'POST', url: '/v2/payment-intents', headers: { 'content-type': 'application/json' }, payload: raw }), `raw ${raw}`);
          }
          const enc = encodeURIComponent(pathId);
          const confirmJson = JSON.stringify(confirmBody);
          check(
            await t.call({ method: 'POST', url: `/v2/payment-intents/${enc}/confirm`, headers: { 'content-type': 'application/json', 'idempotency-key': `fuzz-${n}` }, ...(confirmJson === undefined ? {} : { payload: confirmJson }) }),
            `confirm ${pathId} ${confirmJson}`,
          );
          check(await t.call({ method: 'GET', url: `/v2/payment-intents/${enc}` }), `get intent ${pathId}`);
          check(await t.call({ method: 'GET', url: `/v2/transactions/${enc}` }), `get transaction ${pathId}`);
          check(await t.call({ method: 'GET', url: `/v2/transactions?${new URLSearchParams(q).toString()}` }), `list ${JSON.stringify(q)}`);
        }),
        { numRuns: 220 },
      );
      assert.ok(n >= 200);
      // The generators reach past validation: successes and rejections of the service itself both occurred.
      assert.ok(statuses.has(201) && statuses.has(400) && statuses.has(404), [...statuses].join(','));
    });
  });
}

describe('logged request URLs', () => {
  test('query values are redacted; keys that are not parameter names are too', () => {
    assert.equal(redactQuery('/v2/transactions?api_key=sk_live_abc&limit=5'), '/v2/transactions?api_key=[redacted]&limit=[redacted]');
    assert.equal(redactQuery('/v2/transactions?sk_live_abc%3D%3D'), '/v2/transactions?[redacted]');
    assert.equal(redactQuery('/v2/transactions?sk_live_abc'), '/v2/transactions?[redacted]');
    assert.equal(redactQuery('/v2/x?%E2%80%AE%00=1'), '/v2/x?[redacted]=[redacted]');
    assert.equal(redactQuery('/v2/transactions'), '/v2/transactions');
    const logged = serializeRequest({ method: 'GET', url: '/v2/x?api_key=secret', host: 'h', ip: '1.2.3.4', socket: undefined } as never);
    assert.ok(!JSON.stringify(logged).includes('secret'), JSON.stringify(logged));
  });

  test("a dashboard invitation's token in the path is redacted", () => {
    const logged = serializeRequest({ method: 'POST', url: '/dashboard/api/invitations/s3cr3tT0ken?x=1', host: 'h', ip: '1.2.3.4', socket: undefined } as never);
    assert.equal(logged.url, '/dashboard/api/invitations/[redacted]?x=[redacted]');
    assert.equal(serializeRequest({ method: 'GET', url: '/dashboard/api/team', host: 'h', ip: '1.2.3.4', socket: undefined } as never).url, '/dashboard/api/team');
  });
});

describe('router errors', () => {
  test('frameworkErrors renders router errors as 400 VALIDATION_ERROR with the error body and X-Request-Id', async () => {
    const app = Fastify({ logger: false, frameworkErrors, routerOptions: { maxParamLength: 500 }, genReqId: () => 'req-router' });
    installErrorHandler(app);
    app.get('/v2/payment-intents/:id', async () => ({ ok: true }));
    try {
      const bad = assertError(await app.inject({ method: 'GET', url: '/v2/payment-intents/%E0%A4%A' }), 400, 'VALIDATION_ERROR');
      assert.deepEqual(fieldsOf(bad), ['path']);
      const long = await app.inject({ method: 'GET', url: `/v2/payment-intents/pi_${'a'.repeat(600)}` });
      assert.deepEqual(fieldsOf(assertError(long, 400, 'VALIDATION_ERROR')), ['id']);
      assert.equal(long.headers['x-request-id'], 'req-router');
      assert.equal((await app.inject({ method: 'GET', url: '/v2/payment-intents/pi_1' })).statusCode, 200);
    } finally {
      await app.close();
    }
  });
});
