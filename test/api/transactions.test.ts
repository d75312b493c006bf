import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { addDays, saoPauloDate } from '../../src/lib/sao-paulo-date.js';
import { engines } from '../helpers/db.js';
import { settled } from '../helpers/outcome.js';
import { eventTypesOf, startTestApp, type TestApp, productionEnv, runWorker } from '../helpers/app.js';
import { assertError } from '../helpers/assert.js';
import { boletoIntent, pixIntent } from '../helpers/fixtures.js';
import { deliveredBody } from '../../src/modules/events/index.js';

type Json = Record<string, any>;

/** Creates and confirms an intent in one call; returns the PENDING transaction. */
async function sale(t: TestApp, body: Json = pixIntent()): Promise<Json> {
  const res = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: { ...body, confirm: true } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().transaction;
}
function sandbox(t: TestApp, id: string, action: 'pay' | 'fail') {
  return t.call({ method: 'POST', url: `/v2/sandbox/transactions/${id}/${action}` });
}
function getTransaction(t: TestApp, id: string) {
  return t.call({ method: 'GET', url: `/v2/transactions/${id}` });
}
function list(t: TestApp, query: Record<string, string | number> = {}) {
  return t.call({ method: 'GET', url: '/v2/transactions', query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
}
async function listIds(t: TestApp, query: Record<string, string | number> = {}): Promise<string[]> {
  const res = await list(t, { limit: 100, ...query });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data.map((x: Json) => x.id);
}
async function events(t: TestApp, transactionId: string, type: string): Promise<Json[]> {
  const rows = await t.db.db.selectFrom('events').select('body').where('transaction_id', '=', transactionId).where('type', '=', type).execute();
  return rows.map((r) => JSON.parse(deliveredBody(r.body)));
}
for (const engine of engines()) {
  describe(`transactions on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
    });
    after(async () => {
      await t.close();
    });

    describe('listing', () => {
      const made: Json[] = []; // in creation order
      const start = new Date('2026-11-21T12:00:00.000Z');

      before(async () => {
        for (let i = 0; i < 7; i++) {
          const body = i % 2 === 0 ? pixIntent({ referenceId: `ref-${i % 3}` }) : boletoIntent({ referenceId: `ref-${i % 3}` });
          made.push(await sale(t, body));
          t.clock.advance(60_000);
        }
        assert.equal((await sandbox(t, made[1]!.id, 'pay')).statusCode, 200);
        assert.equal((await sandbox(t, made[2]!.id, 'fail')).statusCode, 200);
      });

      test('GET one transaction returns it as the confirm returned it', async () => {
        const res = await getTransaction(t, made[0]!.id);
        assert.equal(res.statusCode, 200);
        assert.deepEqual(res.json(), made[0]);
      });

      test('the list is newest first in the {data, hasMore} envelope', async () => {
        const res = await list(t);
        assert.equal(res.statusCode, 200);
        const body = res.json();
        assert.deepEqual(Object.keys(body).sort(), ['data', 'hasMore']);
        assert.equal(body.hasMore, false);
        assert.deepEqual(body.data.map((x: Json) => x.id), made.map((x) => x.id).reverse());
        const times = body.data.map((x: Json) => Date.parse(x.createdAt));
        assert.deepEqual(times, [...times].sort((a, b) => b - a));
        assert.equal(body.data.find((x: Json) => x.id === made[1]!.id).status, 'PAID');
      });

      test('paging with limit and startingAfter covers every row exactly once', async () => {
        for (const limit of [1, 3, 7]) {
          const seen: string[] = [];
          const pages: boolean[] = [];
          let startingAfter: string | undefined;
          for (;;) {
            const res = await list(t, { limit, ...(startingAfter ? { startingAfter } : {}) });
            assert.equal(res.statusCode, 200, res.body);
            const { data, hasMore } = res.json();
            assert.ok(data.length <= limit);
            seen.push(...data.map((x: Json) => x.id));
            pages.push(hasMore);
            if (!hasMore) break;
            startingAfter = data.at(-1).id;
          }
          assert.deepEqual(seen, made.map((x) => x.id).reverse(), `limit ${limit}`);
          assert.equal(pages.length, Math.ceil(7 / limit));
          assert.deepEqual(pages, [...pages.slice(0, -1).map(() => true), false]);
        }
        const last = await list(t, { startingAfter: made[0]!.id });
        assert.deepEqual(last.json(), { data: [], hasMore: false });
      });

      test('status, paymentMethod and referenceId filter the list', async () => {
        assert.deepEqual(await listIds(t, { status: 'PAID' }), [made[1]!.id]);
        assert.deepEqual(await listIds(t, { status: 'CANCELED' }), [made[2]!.id]);
        assert.equal((await listIds(t, { status: 'PENDING' })).length, 5);
        assert.deepEqual(await listIds(t, { paymentMethod: 'BOLETO' }), [made[5]!.id, made[3]!.id, made[1]!.id]);
        assert.deepEqual(await listIds(t, { paymentMethod: 'PIX' }), [made[6]!.id, made[4]!.id, made[2]!.id, made[0]!.id]);
        assert.deepEqual(await listIds(t, { paymentMethod: 'CREDIT_CARD' }), []);
        assert.deepEqual(await listIds(t, { referenceId: 'ref-1' }), [made[4]!.id, made[1]!.id]);
        assert.deepEqual(await listIds(t, { referenceId: 'ref-0', paymentMethod: 'PIX' }), [made[6]!.id, made[0]!.id]);
        assert.deepEqual(await listIds(t, { referenceId: 'ref-0', paymentMethod: 'PIX', limit: 1 }), [made[6]!.id]);
      });

      test('createdFrom and createdTo bound the creation time, both inclusive', async () => {
        const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000).toISOString();
        assert.equal(made[2]!.createdAt, at(2));
        assert.deepEqual(await listIds(t, { createdFrom: at(5) }), [made[6]!.id, made[5]!.id]);
        assert.deepEqual(await listIds(t, { createdTo: at(1) }), [made[1]!.id, made[0]!.id]);
        assert.deepEqual(await listIds(t, { createdFrom: at(2), createdTo: at(3) }), [made[3]!.id, made[2]!.id]);
        assert.deepEqual(await listIds(t, { createdFrom: new Date(start.getTime() + 2 * 60_000 + 1).toISOString(), createdTo: at(3) }), [made[3]!.id]);
        assert.deepEqual(await listIds(t, { createdFrom: at(10) }), []);
      });

      test('limit 0, limit 101, a startingAfter without trx_ and a bad date are 400 naming the parameter', async () => {
        assertError(await list(t, { limit: 0 }), 400, 'VALIDATION_ERROR', 'limit');
        assertError(await list(t, { limit: 101 }), 400, 'VALIDATION_ERROR', 'limit');
        assertError(await list(t, { startingAfter: made[0]!.id.slice(4) }), 400, 'VALIDATION_ERROR', 'startingAfter');
        assertError(await list(t, { startingAfter: `pi_${made[0]!.id.slice(4)}` }), 400, 'VALIDATION_ERROR', 'startingAfter');
        assertError(await list(t, { createdFrom: 'yesterday' }), 400, 'VALIDATION_ERROR', 'createdFrom');
        assertError(await list(t, { status: 'DONE' }), 400, 'VALIDATION_ERROR', 'status');
        assert.equal((await list(t, { limit: 100 })).statusCode, 200);
      });

      test("another company sees neither the list nor the transaction; bad ids are 404 or 400", async () => {
        const other = settled(await t.services.companies.createCompany('Outra Loja Ltda', '00000000000191'));
        const { key } = settled(await t.services.companies.issueKey(other.id));
        const headers = { authorization: `Bearer ${key}` };
        const res = await t.call({ method: 'GET', url: '/v2/transactions', headers });
        assert.deepEqual(res.json(), { data: [], hasMore: false });
        assertError(await t.call({ method: 'GET', url: `/v2/transactions/${made[0]!.id}`, headers }), 404, 'NOT_FOUND');
        assertError(await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${made[0]!.id}/pay`, headers }), 404, 'NOT_FOUND');
        assertError(await getTransaction(t, `pi_${made[0]!.id.slice(4)}`), 404, 'NOT_FOUND');
        assertError(await getTransaction(t, `trx_${'a'.repeat(61)}`), 400, 'VALIDATION_ERROR', 'id');
        assert.equal((await getTransaction(t, made[0]!.id)).json().status, 'PENDING');
      });
    });

    // After the listing: these move the clock far ahead and add rows.
    describe('sandbox moves and payment windows', () => {

      test('sandbox pay marks a PENDING transaction PAID and records transaction.paid', async () => {
        const trx = await sale(t);
        t.clock.advance(1_000);
        const res = await sandbox(t, trx.id, 'pay');
        assert.equal(res.statusCode, 200, res.body);
        const paid = res.json();
        assert.equal(paid.status, 'PAID');
        assert.equal(paid.updatedAt, t.clock.now().toISOString());
        assert.deepEqual((await getTransaction(t, trx.id)).json(), paid);
        assert.deepEqual(await eventTypesOf(t, trx.id), ['transaction.created', 'transaction.paid']);
        const [event] = await events(t, trx.id, 'transaction.paid');
        assert.deepEqual(event!.data.transaction, paid);
      });

      test('paying a PAID transaction again answers the same body and records no second event', async () => {
        const trx = await sale(t, boletoIntent());
        const first = await sandbox(t, trx.id, 'pay');
        t.clock.advance(5_000);
        const again = await sandbox(t, trx.id, 'pay');
        assert.equal(again.statusCode, 200);
        assert.equal(again.body, first.body);
        assert.deepEqual(await eventTypesOf(t, trx.id), ['transaction.created', 'transaction.paid']);
      });

      test('sandbox fail cancels a PENDING transaction with transaction.canceled', async () => {
        const trx = await sale(t);
        const res = await sandbox(t, trx.id, 'fail');
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().status, 'CANCELED');
        assert.equal((await getTransaction(t, trx.id)).json().status, 'CANCELED');
        assert.deepEqual(await eventTypesOf(t, trx.id), ['transaction.canceled', 'transaction.created']);
        const [event] = await events(t, trx.id, 'transaction.canceled');
        assert.equal(event!.data.transaction.status, 'CANCELED');
      });

      test('pay on a CANCELED transaction and fail on a PAID or CANCELED one are 409 TRANSACTION_NOT_PENDING', async () => {
        const canceled = await sale(t);
        await sandbox(t, canceled.id, 'fail');
        assertError(await sandbox(t, canceled.id, 'pay'), 409, 'TRANSACTION_NOT_PENDING');
        assertError(await sandbox(t, canceled.id, 'fail'), 409, 'TRANSACTION_NOT_PENDING');
        assert.equal((await getTransaction(t, canceled.id)).json().status, 'CANCELED');

        const paid = await sale(t);
        await sandbox(t, paid.id, 'pay');
        assertError(await sandbox(t, paid.id, 'fail'), 409, 'TRANSACTION_NOT_PENDING');
        assert.equal((await getTransaction(t, paid.id)).json().status, 'PAID');
        assert.deepEqual(await eventTypesOf(t, canceled.id), ['transaction.canceled', 'transaction.created']);
        assert.deepEqual(await eventTypesOf(t, paid.id), ['transaction.created', 'transaction.paid']);
      });

      test('the worker cancels an unpaid Pix at its expiresAt, not before, with exactly one transaction.canceled', async () => {
        const trx = await sale(t, pixIntent({ pix: { expiresInSeconds: 600 } }));
        const expiresAt = Date.parse(trx.paymentDetails.pix.expiresAt);
        assert.equal(expiresAt, t.clock.now().getTime() + 600_000);
        t.clock.set(new Date(expiresAt - 1));
        await runWorker(t);
        assert.equal((await getTransaction(t, trx.id)).json().status, 'PENDING');
        assert.deepEqual(await eventTypesOf(t, trx.id), ['transaction.created']);

        t.clock.set(new Date(expiresAt));
        await runWorker(t);
        const after = (await getTransaction(t, trx.id)).json();
        assert.equal(after.status, 'CANCELED');
        assert.equal(after.updatedAt, new Date(expiresAt).toISOString());
        t.clock.advance(60_000);
        await runWorker(t);
        assert.deepEqual(await eventTypesOf(t, trx.id), ['transaction.canceled', 'transaction.created']);
        const [event] = await events(t, trx.id, 'transaction.canceled');
        assert.deepEqual(event!.data.transaction, after);
      });

      test('the worker leaves a paid Pix alone after its expiry', async () => {
        const trx = await sale(t, pixIntent({ pix: { expiresInSeconds: 60 } }));
        await sandbox(t, trx.id, 'pay');
        t.clock.advance(120_000);
        await runWorker(t);
        assert.equal((await getTransaction(t, trx.id)).json().status, 'PAID');
        assert.deepEqual(await eventTypesOf(t, trx.id), ['transaction.created', 'transaction.paid']);
      });

      test('a boleto is canceled at 03:00Z of due date + 4 days (São Paulo midnight), not at 02:59:59.999Z', async () => {
        const dueDate = addDays(saoPauloDate(t.clock.now()), 2);
        const trx = await sale(t, boletoIntent({ boleto: { dueDate } }));
        assert.equal(trx.paymentDetails.boleto.dueDate, dueDate);
        const closes = Date.parse(`${addDays(dueDate, 4)}T03:00:00.000Z`);

        t.clock.set(new Date(closes - 1));
        await runWorker(t);
        assert.equal((await getTransaction(t, trx.id)).json().status, 'PENDING');

        t.clock.set(new Date(closes));
        await runWorker(t);
        assert.equal((await getTransaction(t, trx.id)).json().status, 'CANCELED');
        assert.deepEqual(await eventTypesOf(t, trx.id), ['transaction.canceled', 'transaction.created']);
      });

      test('a boleto can still be paid in the last millisecond of its window', async () => {
        const dueDate = addDays(saoPauloDate(t.clock.now()), 1);
        const trx = await sale(t, boletoIntent({ boleto: { dueDate } }));
        t.clock.set(new Date(Date.parse(`${addDays(dueDate, 4)}T03:00:00.000Z`) - 1));
        const res = await sandbox(t, trx.id, 'pay');
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().status, 'PAID');
      });

      test('paying after the window closed (before any worker ran) is 409 and the transaction is CANCELED', async () => {
        const trx = await sale(t, pixIntent({ pix: { expiresInSeconds: 60 } }));
        t.clock.set(new Date(Date.parse(trx.paymentDetails.pix.expiresAt)));
        assertError(await sandbox(t, trx.id, 'pay'), 409, 'TRANSACTION_NOT_PENDING');
        assert.equal((await getTransaction(t, trx.id)).json().status, 'CANCELED');
        assertError(await sandbox(t, trx.id, 'pay'), 409, 'TRANSACTION_NOT_PENDING');
        await runWorker(t);
        assert.deepEqual(await eventTypesOf(t, trx.id), ['transaction.canceled', 'transaction.created']);
      });

      test('a sandbox pay with an Idempotency-Key is replayed byte for byte', async () => {
        const trx = await sale(t);
        const key = randomUUID();
        const first = await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${trx.id}/pay`, headers: { 'idempotency-key': key } });
        assert.equal(first.statusCode, 200);
        t.clock.advance(1_000);
        const again = await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${trx.id}/pay`, headers: { 'idempotency-key': key } });
        assert.equal(again.body, first.body);
        assert.equal(again.headers['idempotent-replayed'], 'true');
        assert.deepEqual(await eventTypesOf(t, trx.id), ['transaction.created', 'transaction.paid']);
      });
    });
  });

  describe(`production on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine, { env: productionEnv() });
    });
    after(async () => {
      await t.close();
    });

    test('the sandbox pay and fail routes do not exist in production (404)', async () => {
      assert.match(t.key, /^svc_live_/);
      const trx = await sale(t);
      assertError(await sandbox(t, trx.id, 'pay'), 404, 'NOT_FOUND');
      assertError(await sandbox(t, trx.id, 'fail'), 404, 'NOT_FOUND');
      const read = await getTransaction(t, trx.id);
      assert.equal(read.statusCode, 200);
      assert.equal(read.json().status, 'PENDING');
      assert.deepEqual(await eventTypesOf(t, trx.id), ['transaction.created']);
    });
  });
}
