/**
 * Webhook registrations and the event log over the API (contract "Webhooks",
 * "Event log"): registration and its validations, the URL guard, the limit of
 * 10 active registrations, the secret shown once and never stored in
 * plaintext, scopes, and GET /v2/events as the exact stored bodies.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { engines } from '../helpers/db.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { settled } from '../helpers/outcome.js';
import { assertError, fieldsOf } from '../helpers/assert.js';
import { pixIntent } from '../helpers/fixtures.js';
import { deliveredBody } from '../../src/modules/events/index.js';

type Json = Record<string, any>;

const PRIVATE_NAME = 'internal.example.com';
const resolve = async (host: string): Promise<string[]> => (host === PRIVATE_NAME ? ['10.1.2.3'] : ['93.184.216.34']);

function register(t: TestApp, payload: unknown, headers: Record<string, string> = {}) {
  return t.call({ method: 'POST', url: '/v2/webhooks', payload: payload as Json, headers });
}

async function registered(t: TestApp, url = 'https://hooks.example.com/receiver', events = ['transaction.created']): Promise<Json> {
  const res = await register(t, { url, events });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

async function sale(t: TestApp, key?: string, overrides: Json = {}): Promise<Json> {
  const res = await t.call({
    method: 'POST',
    url: '/v2/payment-intents',
    payload: pixIntent({ confirm: true, ...overrides }),
    ...(key ? { headers: { authorization: `Bearer ${key}` } } : {}),
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().transaction;
}

/** Every active registration of the test company is deleted (the limit tests need a clean slate). */
async function deleteAll(t: TestApp): Promise<void> {
  const list = await t.call({ method: 'GET', url: '/v2/webhooks' });
  for (const hook of list.json().data) {
    assert.equal((await t.call({ method: 'DELETE', url: `/v2/webhooks/${hook.id}` })).statusCode, 204);
  }
}

for (const engine of engines()) {
  describe(`webhook registrations on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine, { resolve });
    });
    after(async () => {
      await t.close();
    });

    test('POST /v2/webhooks is 201 with a whsec_ secret of at least 32 bytes, shown only there', async () => {
      const res = await register(t, { url: 'https://hooks.example.com/a', events: ['transaction.created', 'transaction.paid'], description: 'orders' });
      assert.equal(res.statusCode, 201, res.body);
      const hook = res.json();
      assert.match(hook.id, /^whk_/);
      assert.equal(hook.url, 'https://hooks.example.com/a');
      assert.deepEqual(hook.events, ['transaction.created', 'transaction.paid']);
      assert.equal(hook.description, 'orders');
      assert.equal(hook.active, true);
      assert.equal(hook.createdAt, t.clock.now().toISOString());
      // Standard base64 (Standard Webhooks libraries decode the part after whsec_ as such), padded.
      assert.match(hook.secret, /^whsec_[A-Za-z0-9+/]+={0,2}$/);
      const raw = hook.secret.slice('whsec_'.length);
      assert.equal(raw.length % 4, 0, 'padded standard base64');
      assert.ok(Buffer.from(raw, 'base64').length >= 32, `secret carries at least 32 bytes: ${hook.secret}`);

      const list = await t.call({ method: 'GET', url: '/v2/webhooks' });
      assert.equal(list.statusCode, 200);
      assert.deepEqual(Object.keys(list.json()), ['data']);
      const listed = list.json().data.find((h: Json) => h.id === hook.id);
      const { secret: _secret, ...withoutSecret } = hook;
      assert.deepEqual(listed, withoutSecret);
      assert.ok(!list.body.includes(hook.secret) && !list.body.includes('whsec_'), 'the list carries no secret');

      const one = await t.call({ method: 'GET', url: `/v2/webhooks/${hook.id}` });
      assert.equal(one.statusCode, 200);
      assert.deepEqual(one.json(), withoutSecret);
      assert.ok(!one.body.includes('whsec_'), 'GET one carries no secret');

      // At rest the secret is sealed.
      const row = await t.db.db.selectFrom('webhooks').select('secret_sealed').where('id', '=', hook.id).executeTakeFirstOrThrow();
      assert.ok(!row.secret_sealed.includes(hook.secret) && !row.secret_sealed.includes(raw), 'secret_sealed does not hold the secret');
      assert.ok(!row.secret_sealed.includes(Buffer.from(hook.secret).toString('base64')), 'nor its plain base64');
    });

    test('two registrations get different secrets', async () => {
      const a = await registered(t);
      const b = await registered(t);
      assert.notEqual(a.secret, b.secret);
      await deleteAll(t);
    });

    test('a URL that is not https is 422 WEBHOOK_URL_INVALID', async () => {
      for (const url of ['http://hooks.example.com/x', 'ftp://hooks.example.com/x', 'ws://hooks.example.com/x']) {
        assertError(await register(t, { url, events: ['transaction.paid'] }), 422, 'WEBHOOK_URL_INVALID');
      }
    });

    test('a URL over 2048 characters is 400 VALIDATION_ERROR naming url; exactly 2048 is accepted', async () => {
      const base = 'https://hooks.example.com/';
      assertError(await register(t, { url: base + 'a'.repeat(2049 - base.length), events: ['transaction.paid'] }), 400, 'VALIDATION_ERROR', 'url');
      const ok = await register(t, { url: base + 'a'.repeat(2048 - base.length), events: ['transaction.paid'] });
      assert.equal(ok.statusCode, 201, ok.body);
      await deleteAll(t);
    });

    test('a malformed or missing url is 400 naming url', async () => {
      for (const url of ['not a url', 'https://', '', 'https//hooks.example.com']) {
        assertError(await register(t, { url, events: ['transaction.paid'] }), 400, 'VALIDATION_ERROR', 'url');
      }
      assertError(await register(t, { events: ['transaction.paid'] }), 400, 'VALIDATION_ERROR', 'url');
      assertError(await register(t, { url: 42, events: ['transaction.paid'] }), 400, 'VALIDATION_ERROR', 'url');
    });

    test('events empty, unknown, duplicated or missing is 400 naming events', async () => {
      const url = 'https://hooks.example.com/e';
      for (const events of [[], ['transaction.refunded'], ['transaction.paid', 'transaction.paid'], 'transaction.paid', [1]]) {
        // The list itself or one of its items (events[0]) is named.
        const body = assertError(await register(t, { url, events }), 400, 'VALIDATION_ERROR');
        assert.ok(fieldsOf(body).some((f) => f === 'events' || f.startsWith('events[')), `details should name events: ${JSON.stringify(body)}`);
      }
      assertError(await register(t, { url }), 400, 'VALIDATION_ERROR', 'events');
    });

    test('a description over 255 characters is 400; 255 is accepted', async () => {
      const url = 'https://hooks.example.com/d';
      assertError(await register(t, { url, events: ['transaction.paid'], description: 'x'.repeat(256) }), 400, 'VALIDATION_ERROR', 'description');
      const ok = await register(t, { url, events: ['transaction.paid'], description: 'x'.repeat(255) });
      assert.equal(ok.statusCode, 201, ok.body);
      await deleteAll(t);
    });

    test('an unknown body field is 400 naming it', async () => {
      assertError(await register(t, { url: 'https://hooks.example.com/u', events: ['transaction.paid'], secret: 'whsec_mine' }), 400, 'VALIDATION_ERROR', 'secret');
      assertError(await register(t, { url: 'https://hooks.example.com/u', events: ['transaction.paid'], active: false }), 400, 'VALIDATION_ERROR', 'active');
    });

    test('the URL is stored as its WHATWG serialization; ports 0 and 22 and backslash forms are 422', async () => {
      const res = await register(t, { url: 'HTTPS://Hooks.Example.COM:443/a/../hook', events: ['transaction.paid'] });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().url, 'https://hooks.example.com/hook');
      const row = await t.db.db.selectFrom('webhooks').select('url').where('id', '=', res.json().id).executeTakeFirstOrThrow();
      assert.equal(row.url, 'https://hooks.example.com/hook', 'stored normalised');
      for (const url of ['https://hooks.example.com:0/x', 'https://hooks.example.com:22/x', 'https:\\\\hooks.example.com\\x', 'https://hooks.example.com\\x']) {
        assertError(await register(t, { url, events: ['transaction.paid'] }), 422, 'WEBHOOK_URL_INVALID', 'url');
      }
      await deleteAll(t);
    });

    test('private, loopback and internal targets are 422 WEBHOOK_URL_INVALID', async () => {
      for (const url of [
        'https://10.0.0.1/x',
        'https://127.1',
        'https://127.0.0.1/x',
        'https://[::1]/x',
        'https://localhost/x',
        'https://169.254.169.254/latest/meta-data',
        'https://192.168.0.10/x',
        `https://${PRIVATE_NAME}/hook`,
        'https://user:pass@hooks.example.com/x',
      ]) {
        assertError(await register(t, { url, events: ['transaction.paid'] }), 422, 'WEBHOOK_URL_INVALID', 'url');
      }
      const list = await t.call({ method: 'GET', url: '/v2/webhooks' });
      assert.deepEqual(list.json().data, [], 'nothing was registered');
    });

    test('the 11th active registration is 422 WEBHOOK_LIMIT_REACHED; after a DELETE a new one is accepted', async () => {
      await deleteAll(t);
      const hooks: Json[] = [];
      for (let i = 0; i < 10; i++) hooks.push(await registered(t, `https://hooks.example.com/limit/${i}`));
      assertError(await register(t, { url: 'https://hooks.example.com/limit/10', events: ['transaction.paid'] }), 422, 'WEBHOOK_LIMIT_REACHED');
      assert.equal((await t.call({ method: 'GET', url: '/v2/webhooks' })).json().data.length, 10);

      const del = await t.call({ method: 'DELETE', url: `/v2/webhooks/${hooks[3]!.id}` });
      assert.equal(del.statusCode, 204);
      assert.equal(del.body, '');
      const again = await register(t, { url: 'https://hooks.example.com/limit/10', events: ['transaction.paid'] });
      assert.equal(again.statusCode, 201, again.body);
      assertError(await register(t, { url: 'https://hooks.example.com/limit/11', events: ['transaction.paid'] }), 422, 'WEBHOOK_LIMIT_REACHED');
      await deleteAll(t);
    });

    test('concurrent registrations never pass the limit', async () => {
      await deleteAll(t);
      const results = await Promise.all(
        Array.from({ length: 14 }, (_, i) => register(t, { url: `https://hooks.example.com/race/${i}`, events: ['transaction.paid'] })),
      );
      const created = results.filter((r) => r.statusCode === 201).length;
      assert.equal(created, 10, results.map((r) => r.statusCode).join(','));
      for (const r of results.filter((x) => x.statusCode !== 201)) assertError(r, 422, 'WEBHOOK_LIMIT_REACHED');
      await deleteAll(t);
    });

    test('DELETE of an unknown id is 404; GET and DELETE of a deleted registration are 404', async () => {
      assertError(await t.call({ method: 'DELETE', url: '/v2/webhooks/whk_00000000000000000000000000' }), 404, 'NOT_FOUND');
      assertError(await t.call({ method: 'DELETE', url: '/v2/webhooks/pi_00000000000000000000000000' }), 404, 'NOT_FOUND');
      assertError(await t.call({ method: 'GET', url: '/v2/webhooks/whk_00000000000000000000000000' }), 404, 'NOT_FOUND');
      assertError(await t.call({ method: 'GET', url: `/v2/webhooks/whk_${'0'.repeat(70)}` }), 400, 'VALIDATION_ERROR', 'id');
      const hook = await registered(t);
      assert.equal((await t.call({ method: 'DELETE', url: `/v2/webhooks/${hook.id}` })).statusCode, 204);
      assertError(await t.call({ method: 'GET', url: `/v2/webhooks/${hook.id}` }), 404, 'NOT_FOUND');
      assertError(await t.call({ method: 'DELETE', url: `/v2/webhooks/${hook.id}` }), 404, 'NOT_FOUND');
      const list = await t.call({ method: 'GET', url: '/v2/webhooks' });
      assert.ok(!list.json().data.some((h: Json) => h.id === hook.id), 'a deleted registration is not listed');
    });

    test('an Idempotency-Key replay returns the same bytes (same secret); the stored response is not plaintext', async () => {
      await deleteAll(t);
      const key = `whk-create-${engine}`;
      const body = { url: 'https://hooks.example.com/idem', events: ['transaction.canceled'] };
      const first = await register(t, body, { 'idempotency-key': key });
      assert.equal(first.statusCode, 201, first.body);
      const replay = await register(t, body, { 'idempotency-key': key });
      assert.equal(replay.statusCode, 201);
      assert.equal(replay.body, first.body);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      const secret: string = first.json().secret;
      assert.equal(replay.json().secret, secret);
      assert.equal((await t.call({ method: 'GET', url: '/v2/webhooks' })).json().data.length, 1, 'registered once');

      const row = await t.db.db.selectFrom('idempotency_keys').selectAll().where('company_id', '=', t.companyId).where('key', '=', key).executeTakeFirstOrThrow();
      assert.equal(row.state, 'DONE');
      assert.ok(row.response_body, 'a response is stored');
      assert.ok(!row.response_body!.includes(secret), 'the stored response does not carry the secret in plaintext');
      assert.ok(!row.response_body!.includes(secret.slice('whsec_'.length)), 'not even without its prefix');
      assert.ok(!row.response_body!.includes('whsec_'), 'nor anything that looks like a secret');

      // Another body with the same key is refused.
      assertError(await register(t, { ...body, description: 'other' }, { 'idempotency-key': key }), 422, 'IDEMPOTENCY_KEY_REUSED');
      await deleteAll(t);
    });

    test('a rejected registration does not keep its Idempotency-Key: a corrected retry works', async () => {
      const key = `whk-retry-${engine}`;
      assertError(await register(t, { url: 'https://10.0.0.1/x', events: ['transaction.paid'] }, { 'idempotency-key': key }), 422, 'WEBHOOK_URL_INVALID');
      const ok = await register(t, { url: 'https://hooks.example.com/fixed', events: ['transaction.paid'] }, { 'idempotency-key': key });
      assert.equal(ok.statusCode, 201, ok.body);
      await deleteAll(t);
    });

    test('a key with only payments scopes is 403 on every webhook and event route', async () => {
      const hook = await registered(t);
      const trx = await sale(t);
      const event = await t.db.db.selectFrom('events').select('id').where('transaction_id', '=', trx.id).executeTakeFirstOrThrow();
      const { key } = settled(await t.services.companies.issueKey(t.companyId, ['payments:read', 'payments:write']));
      const headers = { authorization: `Bearer ${key}` };
      const calls = [
        { method: 'POST' as const, url: '/v2/webhooks', payload: { url: 'https://hooks.example.com/s', events: ['transaction.paid'] } },
        { method: 'GET' as const, url: '/v2/webhooks' },
        { method: 'GET' as const, url: `/v2/webhooks/${hook.id}` },
        { method: 'DELETE' as const, url: `/v2/webhooks/${hook.id}` },
        { method: 'GET' as const, url: `/v2/webhooks/${hook.id}/deliveries` },
        { method: 'GET' as const, url: '/v2/events' },
        { method: 'GET' as const, url: `/v2/events/${event.id}` },
        { method: 'POST' as const, url: `/v2/events/${event.id}/resend`, payload: {} },
      ];
      for (const call of calls) assertError(await t.app.inject({ ...call, headers }), 403, 'FORBIDDEN');
      // The same key still works on payments routes; the registration was not touched.
      assert.equal((await t.app.inject({ method: 'GET', url: `/v2/transactions/${trx.id}`, headers })).statusCode, 200);
      assert.equal((await t.call({ method: 'GET', url: `/v2/webhooks/${hook.id}` })).statusCode, 200);

      // webhooks:read alone can read but not write.
      const reader = (settled(await t.services.companies.issueKey(t.companyId, ['webhooks:read']))).key;
      const rh = { authorization: `Bearer ${reader}` };
      assert.equal((await t.app.inject({ method: 'GET', url: '/v2/webhooks', headers: rh })).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'GET', url: `/v2/events/${event.id}`, headers: rh })).statusCode, 200);
      assertError(await t.app.inject({ method: 'DELETE', url: `/v2/webhooks/${hook.id}`, headers: rh }), 403, 'FORBIDDEN');
      assertError(await t.app.inject({ ...calls[0]!, headers: rh }), 403, 'FORBIDDEN');
      await deleteAll(t);
    });
  });

  describe(`event log on ${engine}`, () => {
    let t: TestApp;
    let otherKey: string;
    const made: { trx: Json; type: string }[] = [];

    before(async () => {
      t = await startTestApp(engine, { resolve });
      const other = settled(await t.services.companies.createCompany('Outra Loja Ltda', '00000000000191'));
      otherKey = (settled(await t.services.companies.issueKey(other.id))).key;
    });
    after(async () => {
      await t.close();
    });

    test('GET /v2/events/{id} is exactly the body delivered; data.transaction equals GET /v2/transactions/{id} at that moment', async () => {
      const trx = await sale(t);
      const rows = await t.db.db.selectFrom('events').selectAll().where('transaction_id', '=', trx.id).execute();
      assert.equal(rows.length, 1);
      const created = rows[0]!;
      assert.equal(created.type, 'transaction.created');

      const res = await t.call({ method: 'GET', url: `/v2/events/${created.id}` });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.equal(res.body, deliveredBody(created.body), 'byte for byte the body delivered');
      const event = res.json();
      assert.deepEqual(Object.keys(event).sort(), ['createdAt', 'data', 'id', 'type']);
      assert.deepEqual(Object.keys(event.data), ['transaction']);
      assert.equal(event.id, created.id);
      assert.equal(event.type, 'transaction.created');
      assert.equal(event.createdAt, t.clock.now().toISOString());
      const current = await t.call({ method: 'GET', url: `/v2/transactions/${trx.id}` });
      assert.deepEqual(event.data.transaction, current.json());
      assert.equal(event.data.transaction.status, 'PENDING');
      made.push({ trx, type: 'transaction.created' });

      // After payment: the paid event shows the PAID transaction, the created one is unchanged.
      t.clock.advance(60_000);
      const paid = await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${trx.id}/pay` });
      assert.equal(paid.statusCode, 200, paid.body);
      const paidRow = await t.db.db.selectFrom('events').selectAll().where('transaction_id', '=', trx.id).where('type', '=', 'transaction.paid').executeTakeFirstOrThrow();
      const paidRes = await t.call({ method: 'GET', url: `/v2/events/${paidRow.id}` });
      assert.equal(paidRes.body, deliveredBody(paidRow.body));
      const afterPay = await t.call({ method: 'GET', url: `/v2/transactions/${trx.id}` });
      assert.deepEqual(paidRes.json().data.transaction, afterPay.json());
      assert.equal(paidRes.json().data.transaction.status, 'PAID');
      assert.equal(paidRes.json().createdAt, t.clock.now().toISOString());
      assert.equal((await t.call({ method: 'GET', url: `/v2/events/${created.id}` })).body, deliveredBody(created.body), 'an event never changes');
      made.push({ trx, type: 'transaction.paid' });
    });

    test('GET /v2/events lists newest first, pages with limit/startingAfter, filters by type', async () => {
      for (let i = 0; i < 4; i++) {
        t.clock.advance(60_000);
        const trx = await sale(t, undefined, { referenceId: `ev-${i}` });
        made.push({ trx, type: 'transaction.created' });
        if (i % 2 === 1) {
          t.clock.advance(1_000);
          assert.equal((await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${trx.id}/fail` })).statusCode, 200);
          made.push({ trx, type: 'transaction.canceled' });
        }
      }
      const all = await t.db.db.selectFrom('events').select(['id', 'body']).where('company_id', '=', t.companyId).orderBy('id', 'desc').execute();
      assert.equal(all.length, made.length);

      const full = await t.call({ method: 'GET', url: '/v2/events', query: { limit: '100' } });
      assert.equal(full.statusCode, 200);
      assert.equal(full.body, `{"data":[${all.map((r) => deliveredBody(r.body)).join(',')}],"hasMore":false}`);
      const listed = full.json().data as Json[];
      assert.deepEqual(
        listed.map((e) => `${e.data.transaction.id} ${e.type}`).sort(),
        made.map((m) => `${m.trx.id} ${m.type}`).sort(),
      );
      for (let i = 1; i < listed.length; i++) {
        assert.ok(listed[i - 1]!.createdAt >= listed[i]!.createdAt, 'newest first');
      }

      // Paging: pages of 2 walk the whole list once, in the same order.
      const walked: string[] = [];
      let startingAfter: string | undefined;
      for (let page = 0; page < 20; page++) {
        const res = await t.call({ method: 'GET', url: '/v2/events', query: { limit: '2', ...(startingAfter ? { startingAfter } : {}) } });
        assert.equal(res.statusCode, 200);
        const body = res.json();
        assert.ok(body.data.length <= 2);
        walked.push(...body.data.map((e: Json) => e.id));
        if (!body.hasMore) break;
        startingAfter = body.data.at(-1).id;
      }
      assert.deepEqual(walked, listed.map((e) => e.id));

      // `after`: the later events oldest first, paged forward the same way (what svc listen follows).
      const oldestFirst = listed.map((e) => e.id).reverse();
      const followed: string[] = [];
      let cursor = oldestFirst[0]!;
      for (let page = 0; page < 20; page++) {
        const res = await t.call({ method: 'GET', url: '/v2/events', query: { after: cursor, limit: '2' } });
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json();
        followed.push(...body.data.map((e: Json) => e.id));
        if (!body.hasMore) break;
        cursor = body.data.at(-1).id;
      }
      assert.deepEqual(followed, oldestFirst.slice(1));
      const last = await t.call({ method: 'GET', url: '/v2/events', query: { after: oldestFirst.at(-1)! } });
      assert.equal(last.body, '{"data":[],"hasMore":false}');
      assertError(await t.call({ method: 'GET', url: '/v2/events', query: { after: 'trx_1' } }), 400, 'VALIDATION_ERROR', 'after');
      assertError(await t.call({ method: 'GET', url: '/v2/events', query: { after: oldestFirst[0]!, startingAfter: oldestFirst[1]! } }), 400, 'VALIDATION_ERROR', 'after');

      // Default limit 20 and validation of the query.
      assert.equal((await t.call({ method: 'GET', url: '/v2/events' })).json().data.length, Math.min(20, made.length));
      assertError(await t.call({ method: 'GET', url: '/v2/events', query: { limit: '0' } }), 400, 'VALIDATION_ERROR', 'limit');
      assertError(await t.call({ method: 'GET', url: '/v2/events', query: { limit: '101' } }), 400, 'VALIDATION_ERROR', 'limit');
      assertError(await t.call({ method: 'GET', url: '/v2/events', query: { type: 'transaction.refunded' } }), 400, 'VALIDATION_ERROR', 'type');
      assertError(await t.call({ method: 'GET', url: '/v2/events', query: { color: 'red' } }), 400, 'VALIDATION_ERROR');

      for (const type of ['transaction.created', 'transaction.paid', 'transaction.canceled']) {
        const res = await t.call({ method: 'GET', url: '/v2/events', query: { type, limit: '100' } });
        assert.equal(res.statusCode, 200);
        const data = res.json().data as Json[];
        assert.ok(data.every((e) => e.type === type), `only ${type}`);
        assert.equal(data.length, made.filter((m) => m.type === type).length, type);
      }
      const createdPage = await t.call({ method: 'GET', url: '/v2/events', query: { type: 'transaction.created', limit: '2' } });
      assert.equal(createdPage.json().data.length, 2);
      assert.equal(createdPage.json().hasMore, true);
    });

    test("events of other companies are not visible", async () => {
      const theirs = await sale(t, otherKey, { referenceId: 'theirs' });
      const theirEvent = await t.db.db.selectFrom('events').select('id').where('transaction_id', '=', theirs.id).executeTakeFirstOrThrow();
      assertError(await t.call({ method: 'GET', url: `/v2/events/${theirEvent.id}` }), 404, 'NOT_FOUND');
      const mine = await t.call({ method: 'GET', url: '/v2/events', query: { limit: '100' } });
      assert.ok(!mine.json().data.some((e: Json) => e.id === theirEvent.id || e.data.transaction.sellerId !== t.companyId));
      assertError(
        await t.call({ method: 'POST', url: `/v2/events/${theirEvent.id}/resend`, payload: {} }),
        404,
        'NOT_FOUND',
      );
      // The owner sees exactly its own.
      const own = await t.app.inject({ method: 'GET', url: '/v2/events', headers: { authorization: `Bearer ${otherKey}` } });
      assert.deepEqual(own.json().data.map((e: Json) => e.id), [theirEvent.id]);
      const ownOne = await t.app.inject({ method: 'GET', url: `/v2/events/${theirEvent.id}`, headers: { authorization: `Bearer ${otherKey}` } });
      assert.equal(ownOne.statusCode, 200);
    });

    test('unknown or malformed event ids are 404; an over-long id is 400', async () => {
      assertError(await t.call({ method: 'GET', url: '/v2/events/evt_00000000000000000000000000' }), 404, 'NOT_FOUND');
      assertError(await t.call({ method: 'GET', url: `/v2/events/${made[0]!.trx.id}` }), 404, 'NOT_FOUND');
      assertError(await t.call({ method: 'GET', url: `/v2/events/evt_${'0'.repeat(70)}` }), 400, 'VALIDATION_ERROR', 'id');
    });
  });
}
