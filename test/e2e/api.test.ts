/**
 * E2E over real HTTP against `svc serve` (one server, rate limit raised to
 * 10000/s for the concurrent bursts): transaction listing (filters and cursor
 * paging), intent reads and cancel, the 5-minute intent lifetime, idempotent
 * replay byte for byte, errors (401 without a key, 502 PROVIDER_ERROR leaving
 * the intent FAILED), and concurrency: 50 concurrent confirms of one intent
 * with 50 different Idempotency-Keys make exactly one transaction; concurrent
 * twins with one key never charge twice.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { idemKey, startServer, type TestServer } from '../helpers/server.js';
import { boletoIntent, pixIntent } from '../helpers/fixtures.js';

type Json = Record<string, any>;

describe('e2e: transactions, intents, idempotency, errors and concurrency over HTTP', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer({ env: { RATE_LIMIT_PER_SECOND: '10000' } });
  });
  after(async () => {
    const exit = await server?.stop();
    assert.deepEqual(exit, { code: 0, signal: null }, 'SIGTERM stops the server with exit code 0');
  });

  async function call(path: string, init: { method?: string; body?: unknown; key?: string } = {}): Promise<{ status: number; json: Json; res: Response }> {
    const res = await server.api(path, { method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'), body: init.body, headers: init.key ? { 'idempotency-key': init.key } : {} });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : {}) as Json, res };
  }

  /** Every row of a filtered list, by pages of `limit`, checking the page envelope on the way. */
  async function listAll(query: Record<string, string>, limit: number): Promise<Json[]> {
    const rows: Json[] = [];
    let startingAfter: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const params = new URLSearchParams({ ...query, limit: String(limit), ...(startingAfter ? { startingAfter } : {}) });
      const { status, json } = await call(`/v2/transactions?${params}`);
      assert.equal(status, 200, JSON.stringify(json));
      assert.deepEqual(Object.keys(json).sort(), ['data', 'hasMore']);
      assert.ok(Array.isArray(json.data));
      assert.ok(json.data.length <= limit, 'a page holds at most `limit` rows');
      rows.push(...json.data);
      if (!json.hasMore) return rows;
      assert.equal(json.data.length, limit, 'a page with hasMore is full');
      startingAfter = json.data.at(-1).id;
    }
    throw new Error('paging did not end');
  }

  const ids = (rows: Json[]) => rows.map((r) => r.id as string);

  function assertNewestFirst(rows: Json[]): void {
    for (let i = 1; i < rows.length; i++) {
      assert.ok(Date.parse(rows[i - 1]!.createdAt) >= Date.parse(rows[i]!.createdAt), `row ${i} is not older than row ${i - 1}`);
    }
    assert.equal(new Set(ids(rows)).size, rows.length, 'no row twice');
  }

  test('GET /v2/transactions: cursor paging and filters return every row exactly once, newest first', async () => {
    // 9 transactions: Pix and boleto, three reference ids, some paid.
    const created: Json[] = [];
    for (let i = 0; i < 9; i++) {
      const body = i % 3 === 2
        ? boletoIntent({ amountCents: 1_000 + i, referenceId: `list-ref-${i % 3}`, confirm: true })
        : pixIntent({ amountCents: 1_000 + i, referenceId: `list-ref-${i % 3}`, confirm: true });
      const res = await call('/v2/payment-intents', { body });
      assert.equal(res.status, 201, JSON.stringify(res.json));
      created.push(res.json.transaction);
    }
    for (const trx of [created[0]!, created[4]!, created[5]!]) {
      assert.equal((await call(`/v2/sandbox/transactions/${trx.id}/pay`, { method: 'POST' })).status, 200);
    }

    const whole = await call('/v2/transactions?limit=100');
    assert.equal(whole.status, 200);
    assert.equal(whole.json.hasMore, false);
    const all = whole.json.data as Json[];
    assertNewestFirst(all);
    for (const trx of created) assert.ok(ids(all).includes(trx.id), `${trx.id} is listed`);
    // Created one after the other: where creation instants differ, the later one is listed first.
    for (let i = 1; i < created.length; i++) {
      if (created[i]!.createdAt !== created[i - 1]!.createdAt) {
        assert.ok(ids(all).indexOf(created[i]!.id) < ids(all).indexOf(created[i - 1]!.id), 'newest first');
      }
    }

    // Default page size 20 and the envelope.
    const first = await call('/v2/transactions');
    assert.equal(first.json.data.length, Math.min(20, all.length));
    assert.equal(first.json.hasMore, all.length > 20);

    for (const limit of [1, 2, 3, 4]) {
      assert.deepEqual(ids(await listAll({}, limit)), ids(all), `limit ${limit}: same rows, same order, once each`);
    }

    // startingAfter: the rows after the cursor, in order.
    const cursor = all[3]!.id as string;
    const after3 = await call(`/v2/transactions?limit=3&startingAfter=${cursor}`);
    assert.deepEqual(ids(after3.json.data), ids(all.slice(4, 7)));
    assert.equal(after3.json.hasMore, all.length > 7);

    const cases: [Record<string, string>, (t: Json) => boolean][] = [
      [{ status: 'PAID' }, (t) => t.status === 'PAID'],
      [{ status: 'PENDING' }, (t) => t.status === 'PENDING'],
      [{ paymentMethod: 'BOLETO' }, (t) => t.paymentMethod === 'BOLETO'],
      [{ paymentMethod: 'PIX' }, (t) => t.paymentMethod === 'PIX'],
      [{ referenceId: 'list-ref-1' }, (t) => t.referenceId === 'list-ref-1'],
      [{ referenceId: 'list-ref-0', status: 'PAID' }, (t) => t.referenceId === 'list-ref-0' && t.status === 'PAID'],
      [{ paymentMethod: 'BOLETO', status: 'PENDING' }, (t) => t.paymentMethod === 'BOLETO' && t.status === 'PENDING'],
      [{ referenceId: 'no-such-reference' }, () => false],
    ];
    for (const [query, keep] of cases) {
      const expected = ids(all.filter(keep));
      for (const limit of [1, 2, 100]) {
        const rows = await listAll(query, limit);
        assertNewestFirst(rows);
        assert.deepEqual(ids(rows), expected, `${JSON.stringify(query)} limit ${limit}`);
      }
    }
    assert.deepEqual(ids(await listAll({ status: 'PAID' }, 100)).sort(), ids([created[0]!, created[4]!, created[5]!]).sort());
    assert.equal((await listAll({ referenceId: 'list-ref-2' }, 100)).length, 3);
  });

  test('GET intent, cancel an unconfirmed intent (200 CANCELED), expiresAt = createdAt + 300 000 ms', async () => {
    const created = await call('/v2/payment-intents', { body: pixIntent({ referenceId: 'cancel-me' }) });
    assert.equal(created.status, 201);
    assert.equal(Date.parse(created.json.expiresAt) - Date.parse(created.json.createdAt), 300_000);
    assert.match(created.json.expiresAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const read = await call(`/v2/payment-intents/${created.json.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.json, created.json, 'GET returns the intent as created');

    const canceled = await call(`/v2/payment-intents/${created.json.id}/cancel`, { method: 'POST' });
    assert.equal(canceled.status, 200, JSON.stringify(canceled.json));
    assert.equal(canceled.json.status, 'CANCELED');
    assert.equal(canceled.json.id, created.json.id);
    assert.equal((await call(`/v2/payment-intents/${created.json.id}`)).json.status, 'CANCELED');

    const confirm = await call(`/v2/payment-intents/${created.json.id}/confirm`, { method: 'POST', key: idemKey('after-cancel') });
    assert.equal(confirm.status, 409);
    assert.equal(confirm.json.code, 'INTENT_ALREADY_PROCESSED');
    const again = await call(`/v2/payment-intents/${created.json.id}/cancel`, { method: 'POST' });
    assert.equal(again.status, 409);
    assert.equal(again.json.code, 'INTENT_ALREADY_PROCESSED');
    assert.equal((await listAll({ referenceId: 'cancel-me' }, 100)).length, 0, 'a canceled intent made no transaction');

    // Every intent lives exactly 5 minutes, whatever the method.
    for (const body of [boletoIntent({ referenceId: 'lifetime-boleto' }), { ...pixIntent({ referenceId: 'lifetime-pix' }) }]) {
      const r = await call('/v2/payment-intents', { body });
      assert.equal(r.status, 201);
      assert.equal(Date.parse(r.json.expiresAt) - Date.parse(r.json.createdAt), 300_000);
      assert.equal((await call(`/v2/payment-intents/${r.json.id}/cancel`, { method: 'POST' })).json.status, 'CANCELED');
    }

    const unknown = await call('/v2/payment-intents/pi_00000000000000000000000000');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.code, 'NOT_FOUND');
  });

  test('Idempotent replay: same POST with confirm: true and same key → same status and bytes, Idempotent-Replayed, one transaction', async () => {
    const before = (await listAll({}, 100)).length;
    const key = idemKey('replay');
    const body = pixIntent({ amountCents: 7_777, referenceId: 'replay-ref', confirm: true });

    const first = await server.api('/v2/payment-intents', { body, headers: { 'idempotency-key': key } });
    const firstBytes = Buffer.from(await first.arrayBuffer());
    const second = await server.api('/v2/payment-intents', { body, headers: { 'idempotency-key': key } });
    const secondBytes = Buffer.from(await second.arrayBuffer());

    assert.equal(first.status, 201);
    assert.equal(second.status, first.status);
    assert.equal(first.headers.get('idempotent-replayed'), null, 'the first response is not a replay');
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.ok(secondBytes.equals(firstBytes), 'the replayed body is byte for byte the first');
    const intent = JSON.parse(firstBytes.toString('utf8')) as Json;
    assert.equal(intent.status, 'CONFIRMED');

    const after = await listAll({}, 100);
    assert.equal(after.length, before + 1, 'the list grew by one transaction only');
    assert.deepEqual(ids(await listAll({ referenceId: 'replay-ref' }, 100)), [intent.transaction.id]);

    // The same key with another body is refused, and charges nothing.
    const reused = await call('/v2/payment-intents', { body: { ...body, amountCents: 7_778 }, key });
    assert.equal(reused.status, 422);
    assert.equal(reused.json.code, 'IDEMPOTENCY_KEY_REUSED');
    assert.equal((await listAll({}, 100)).length, before + 1);

    // Confirm (two steps) replays the same way.
    const pending = await call('/v2/payment-intents', { body: pixIntent({ referenceId: 'replay-confirm' }) });
    const confirmKey = idemKey('replay-confirm');
    const c1 = await server.api(`/v2/payment-intents/${pending.json.id}/confirm`, { method: 'POST', headers: { 'idempotency-key': confirmKey } });
    const c1Bytes = Buffer.from(await c1.arrayBuffer());
    const c2 = await server.api(`/v2/payment-intents/${pending.json.id}/confirm`, { method: 'POST', headers: { 'idempotency-key': confirmKey } });
    const c2Bytes = Buffer.from(await c2.arrayBuffer());
    assert.equal(c1.status, 201);
    assert.equal(c2.status, 201);
    assert.equal(c2.headers.get('idempotent-replayed'), 'true');
    assert.ok(c2Bytes.equals(c1Bytes));
    assert.equal((await listAll({ referenceId: 'replay-confirm' }, 100)).length, 1);
  });

  test('No API key → 401 UNAUTHORIZED with WWW-Authenticate: Bearer', async () => {
    for (const [method, path, body] of [
      ['GET', '/v2/transactions', undefined],
      ['POST', '/v2/payment-intents', JSON.stringify(pixIntent())],
    ] as const) {
      const res = await fetch(`${server.url}${path}`, { method, body, headers: body ? { 'content-type': 'application/json' } : {} });
      assert.equal(res.status, 401, `${method} ${path}`);
      assert.equal(res.headers.get('www-authenticate'), 'Bearer');
      const json = (await res.json()) as Json;
      assert.equal(json.code, 'UNAUTHORIZED');
      assert.equal(typeof json.message, 'string');
    }
    const bad = await fetch(`${server.url}/v2/transactions`, { headers: { authorization: `Bearer svc_test_${'x'.repeat(43)}` } });
    assert.equal(bad.status, 401);
    assert.equal(bad.headers.get('www-authenticate'), 'Bearer');
    const live = await fetch(`${server.url}/v2/transactions`, { headers: { authorization: `Bearer ${server.key.replace('svc_test_', 'svc_live_')}` } });
    assert.equal(live.status, 401, 'a production key is refused in the sandbox');
  });

  test('Amount 50200 → 502 PROVIDER_ERROR and the intent is FAILED; no transaction', async () => {
    // Two steps: the intent id is known, so its FAILED state can be read back.
    const created = await call('/v2/payment-intents', { body: pixIntent({ amountCents: 50_200, referenceId: 'silent-two-step' }) });
    assert.equal(created.status, 201);
    const key = idemKey('silent');
    const confirm = await call(`/v2/payment-intents/${created.json.id}/confirm`, { method: 'POST', key });
    assert.equal(confirm.status, 502);
    assert.equal(confirm.json.code, 'PROVIDER_ERROR');
    const intent = await call(`/v2/payment-intents/${created.json.id}`);
    assert.equal(intent.json.status, 'FAILED');
    assert.equal(intent.json.transactionId, undefined);
    // The outcome is stored under the key (replayed), and another key finds the intent processed.
    const replay = await call(`/v2/payment-intents/${created.json.id}/confirm`, { method: 'POST', key });
    assert.equal(replay.status, 502);
    assert.equal(replay.res.headers.get('idempotent-replayed'), 'true');
    const other = await call(`/v2/payment-intents/${created.json.id}/confirm`, { method: 'POST', key: idemKey('silent-other') });
    assert.equal(other.status, 409);
    assert.equal(other.json.code, 'INTENT_ALREADY_PROCESSED');

    // One call with confirm: true, Pix and boleto.
    for (const body of [
      pixIntent({ amountCents: 50_200, referenceId: 'silent-one-call', confirm: true }),
      boletoIntent({ amountCents: 50_200, referenceId: 'silent-one-call-boleto', confirm: true }),
    ]) {
      const res = await call('/v2/payment-intents', { body, key: idemKey('silent-one') });
      assert.equal(res.status, 502, JSON.stringify(res.json));
      assert.equal(res.json.code, 'PROVIDER_ERROR');
      assert.deepEqual(Object.keys(res.json).sort(), ['code', 'message']);
    }
    for (const ref of ['silent-two-step', 'silent-one-call', 'silent-one-call-boleto']) {
      assert.equal((await listAll({ referenceId: ref }, 100)).length, 0, `${ref}: no transaction`);
    }
  });

  for (const [label, body] of [
    ['Pix', pixIntent({ referenceId: 'race-pix' })],
    ['boleto', boletoIntent({ referenceId: 'race-boleto' })],
  ] as const) {
    test(`${label}: 50 concurrent confirms with 50 different keys → one 201, 49 × 409 INTENT_ALREADY_PROCESSED, one transaction`, async () => {
      const created = await server.api('/v2/payment-intents', { body });
      assert.equal(created.status, 201);
      const intent = (await created.json()) as Json;

      const answers = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const res = await fetch(`${server.url}/v2/payment-intents/${intent.id}/confirm`, {
            method: 'POST',
            headers: { authorization: `Bearer ${server.key}`, 'idempotency-key': idemKey(`race-${i}`) },
          });
          return { status: res.status, json: (await res.json()) as Json };
        }),
      );
      const byStatus = new Map<number, number>();
      for (const a of answers) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
      assert.deepEqual(Object.fromEntries(byStatus), { 201: 1, 409: 49 }, JSON.stringify(answers.filter((a) => a.status !== 201 && a.status !== 409)));
      for (const a of answers.filter((x) => x.status === 409)) assert.equal(a.json.code, 'INTENT_ALREADY_PROCESSED');
      const winner = answers.find((a) => a.status === 201)!.json;
      assert.equal(winner.status, 'PENDING');
      assert.equal(winner.paymentIntentId, intent.id);

      const rows = await listAll({ referenceId: body.referenceId as string }, 100);
      assert.deepEqual(rows.map((r) => r.id), [winner.id], 'exactly one transaction for the intent');
      const read = (await (await server.api(`/v2/payment-intents/${intent.id}`)).json()) as Json;
      assert.equal(read.status, 'CONFIRMED');
      assert.equal(read.transactionId, winner.id);
    });
  }

  test('20 concurrent identical creates with confirm: true and one key → never two charges; replays are byte-identical', async () => {
    const key = idemKey('twins');
    const body = JSON.stringify(pixIntent({ referenceId: 'race-twins', confirm: true, amountCents: 3_333 }));
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const res = await fetch(`${server.url}/v2/payment-intents`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.key}`, 'idempotency-key': key, 'content-type': 'application/json' },
          body,
        });
        return { status: res.status, replayed: res.headers.get('idempotent-replayed'), text: await res.text() };
      }),
    );
    const created = answers.filter((a) => a.status === 201);
    const busy = answers.filter((a) => a.status === 409);
    assert.equal(created.length + busy.length, 20, JSON.stringify(answers.map((a) => a.status)));
    for (const b of busy) assert.equal((JSON.parse(b.text) as Json).code, 'IDEMPOTENCY_KEY_IN_USE');
    assert.equal(created.filter((a) => a.replayed !== 'true').length, 1, 'one request did the work');
    for (const c of created) assert.equal(c.text, created[0]!.text);

    // After the dust settles the key replays the one outcome.
    const later = await fetch(`${server.url}/v2/payment-intents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}`, 'idempotency-key': key, 'content-type': 'application/json' },
      body,
    });
    assert.equal(later.status, 201);
    assert.equal(later.headers.get('idempotent-replayed'), 'true');
    assert.equal(await later.text(), created[0]!.text);
    assert.equal((await listAll({ referenceId: 'race-twins' }, 100)).length, 1);
  });
});
