/**
 * `data.transaction.version` (README "Webhooks"): 1 when the transaction is
 * created (the one-statement create-and-confirm and the separate confirm
 * alike), one more at each state change (paid, canceled, each refund, a
 * chargeback), the same in every event of one change and in
 * GET /v2/transactions/{id}; a change that is refused or repeated leaves it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { engines } from '../helpers/db.js';
import { startTestApp, tokenizeCard, type TestApp } from '../helpers/app.js';
import { cardIntent, pixIntent } from '../helpers/fixtures.js';
import { idemKey } from '../helpers/server.js';

type Json = Record<string, any>;

for (const engine of engines()) {
  describe(`transaction version on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
    });
    after(() => t.close());

    const post = async (url: string, payload?: Json, status = 200): Promise<Json> => {
      const res = await t.call({
        method: 'POST',
        url,
        headers: { 'idempotency-key': idemKey() },
        ...(payload ? { payload } : {}),
      });
      assert.equal(res.statusCode, status, res.body);
      return res.json();
    };
    const versionNow = async (id: string): Promise<number> => {
      const res = await t.call({ method: 'GET', url: `/v2/transactions/${id}` });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().version;
    };
    /** [type, data.transaction.version] of every event of a transaction, in order. */
    const eventVersions = async (id: string): Promise<[string, number][]> => {
      const rows = await t.db.db.selectFrom('events').select('body').where('transaction_id', '=', id).orderBy('id').execute();
      return rows.map((r) => JSON.parse(r.body) as Json).map((e) => [e.type, e.data.transaction.version]);
    };

    test('created in one statement (confirm: true): 1; paid: 2; paid again: still 2, no event', async () => {
      const intent = await post('/v2/payment-intents', pixIntent({ confirm: true, referenceId: `v-${randomUUID()}` }), 201);
      const id = intent.transaction.id;
      assert.equal(intent.transaction.version, 1, 'the response of the create');
      assert.equal(await versionNow(id), 1);
      const paid = await post(`/v2/sandbox/transactions/${id}/pay`);
      assert.equal(paid.version, 2);
      await post(`/v2/sandbox/transactions/${id}/pay`);
      assert.equal(await versionNow(id), 2);
      assert.deepEqual(await eventVersions(id), [['transaction.created', 1], ['transaction.paid', 2]]);
    });

    test('created by POST …/confirm: 1; canceled by the sandbox fail route: 2; a refused pay leaves it', async () => {
      const intent = await post('/v2/payment-intents', pixIntent({ referenceId: `v-${randomUUID()}` }), 201);
      const trx = await post(`/v2/payment-intents/${intent.id}/confirm`, undefined, 201);
      assert.equal(trx.version, 1);
      assert.equal((await post(`/v2/sandbox/transactions/${trx.id}/fail`)).version, 2);
      await post(`/v2/sandbox/transactions/${trx.id}/pay`, undefined, 409);
      assert.equal(await versionNow(trx.id), 2);
      assert.deepEqual(await eventVersions(trx.id), [['transaction.created', 1], ['transaction.canceled', 2]]);
    });

    test('each refund is one more; the refund that cancels carries the same version as its transaction.canceled', async () => {
      const intent = await post('/v2/payment-intents', pixIntent({ confirm: true, referenceId: `v-${randomUUID()}` }), 201);
      const id = intent.transaction.id;
      await post(`/v2/sandbox/transactions/${id}/pay`);
      await post(`/v2/transactions/${id}/refunds`, { amountCents: 4_000 }, 201);
      assert.equal(await versionNow(id), 3);
      await post(`/v2/transactions/${id}/refunds`, {}, 201);
      assert.equal(await versionNow(id), 4);
      assert.deepEqual(await eventVersions(id), [
        ['transaction.created', 1],
        ['transaction.paid', 2],
        ['refund.succeeded', 3],
        ['refund.succeeded', 4],
        ['transaction.canceled', 4],
      ]);
    });

    test('a card sale (created then paid in one confirm: 1, 2), a partial refund (3), then a chargeback (4)', async () => {
      const intent = await post('/v2/payment-intents', cardIntent({ referenceId: `v-${randomUUID()}` }), 201);
      const { token } = await tokenizeCard(t, intent.cardTokenization);
      const sale = await post(`/v2/payment-intents/${intent.id}/confirm`, { token }, 201);
      assert.deepEqual([sale.status, sale.version], ['PAID', 2]);
      await post(`/v2/transactions/${sale.id}/refunds`, { amountCents: 1_000 }, 201);
      const chargedBack = await post(`/v2/sandbox/transactions/${sale.id}/chargeback`);
      assert.equal(chargedBack.version, 4);
      assert.deepEqual(await eventVersions(sale.id), [
        ['transaction.created', 1],
        ['transaction.paid', 2],
        ['refund.succeeded', 3],
        ['transaction.canceled', 4],
      ]);
    });
  });
}
