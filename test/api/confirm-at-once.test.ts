/**
 * The sandbox confirm of an existing Pix or boleto intent (POST …/confirm,
 * simulated provider) written in one transaction that locks the intent and
 * runs one statement (payment-intents confirmAtOnce, Confirmation.confirmLockedAtOnce):
 * every row it writes carries that transaction's id (xmin), the intent holds
 * the claim's columns the phased path leaves, and the key is DONE with the
 * response. What it cannot do at once (an unavailable provider, a key that
 * exists, an intent already confirmed) goes the phased path with its answers.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/db.js';
import { assertError } from '../helpers/assert.js';
import { boletoIntent, pixIntent } from '../helpers/fixtures.js';

function assertReplayOf(replay: LightMyRequestResponse, first: LightMyRequestResponse): void {
  assert.equal(replay.statusCode, first.statusCode);
  assert.equal(replay.body, first.body, 'byte-identical body');
  assert.equal(replay.headers['idempotent-replayed'], 'true');
}

for (const engine of engines()) {
  describe(`confirm in one transaction and statement (${engine})`, () => {
    let t: TestApp;

    before(async () => {
      t = await startTestApp(engine);
    });
    after(() => t.close());

    const createIntent = async (payload: object): Promise<string> => {
      const res = await t.call({ method: 'POST', url: '/v2/payment-intents', payload });
      assert.equal(res.statusCode, 201, res.body);
      return res.json<{ id: string }>().id;
    };
    const confirm = (id: string, key: string) => t.call({ method: 'POST', url: `/v2/payment-intents/${id}/confirm`, headers: { 'idempotency-key': key } });
    const xminOf = async (table: 'payment_intents' | 'transactions' | 'events' | 'acquirer_charges' | 'idempotency_keys', column: string, value: string) => {
      const rows = await sql<{ xmin: string }>`SELECT xmin::text AS xmin FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${value}`.execute(t.db.db);
      return rows.rows.map((r) => r.xmin);
    };
    const intentRow = (id: string) => t.db.db.selectFrom('payment_intents').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    async function assertOneTransaction(intentId: string, key: string, transactionId: string): Promise<void> {
      const [intent] = await xminOf('payment_intents', 'id', intentId);
      const written = [
        ...(await xminOf('transactions', 'id', transactionId)),
        ...(await xminOf('events', 'transaction_id', transactionId)),
        ...(await xminOf('acquirer_charges', 'reference', intentId)),
        ...(await xminOf('idempotency_keys', 'key', key)),
      ];
      assert.equal(written.length, 4, 'a transaction, its event, the acquirer record and the key');
      for (const xmin of written) assert.equal(xmin, intent, 'written by the transaction that confirmed the intent');
    }

    test('Pix: transaction, event, acquirer record, intent and DONE key in one transaction; the retry replays the bytes', async () => {
      const id = await createIntent(pixIntent({ referenceId: 'locked-pix' }));
      const first = await confirm(id, 'k-locked-pix');
      assert.equal(first.statusCode, 201, first.body);
      const transaction = first.json<{ id: string; status: string; paymentIntentId: string }>();
      assert.equal(transaction.status, 'PENDING');
      assert.equal(transaction.paymentIntentId, id);
      assert.deepEqual(first.json(), (await t.call({ method: 'GET', url: `/v2/transactions/${transaction.id}` })).json());
      await assertOneTransaction(id, 'k-locked-pix', transaction.id);
      const row = await intentRow(id);
      assert.equal(row.status, 'CONFIRMED');
      assert.equal(row.transaction_id, transaction.id);
      assert.equal(row.reserved_transaction_id, transaction.id);
      assert.equal(row.confirm_key, 'k-locked-pix');
      assert.ok(row.confirm_started_at instanceof Date);
      const key = await t.db.db.selectFrom('idempotency_keys').selectAll().where('key', '=', 'k-locked-pix').executeTakeFirstOrThrow();
      assert.deepEqual([key.state, key.response_status], ['DONE', 201]);
      assertReplayOf(await confirm(id, 'k-locked-pix'), first);
    });

    test('boleto: its number from the sequence, everything else in the one transaction', async () => {
      const id = await createIntent(boletoIntent({ referenceId: 'locked-boleto' }));
      const res = await confirm(id, 'k-locked-boleto');
      assert.equal(res.statusCode, 201, res.body);
      const transaction = res.json<{ id: string; paymentDetails: { boleto: { digitableLine: string } } }>();
      assert.match(transaction.paymentDetails.boleto.digitableLine, /^\d{47}$/);
      await assertOneTransaction(id, 'k-locked-boleto', transaction.id);
    });

    test('another key on a confirmed intent gets the phased answer, and writes nothing more', async () => {
      const id = await createIntent(pixIntent({ referenceId: 'locked-other-key' }));
      const first = await confirm(id, 'k-locked-first');
      assert.equal(first.statusCode, 201, first.body);
      assertError(await confirm(id, 'k-locked-second'), 409, 'INTENT_ALREADY_PROCESSED');
      const transactions = await t.db.db.selectFrom('transactions').select('id').where('payment_intent_id', '=', id).execute();
      assert.equal(transactions.length, 1);
    });

    test('an unavailable provider: nothing written at once; the phased path fails the intent with 502, and replays it', async () => {
      const id = await createIntent(pixIntent({ referenceId: 'locked-silent', amountCents: 50_200 }));
      const first = await confirm(id, 'k-locked-silent');
      assertError(first, 502, 'PROVIDER_ERROR');
      assertReplayOf(await confirm(id, 'k-locked-silent'), first);
      assert.equal((await intentRow(id)).status, 'FAILED');
    });

    test('a statement that fails in its last part leaves the intent unclaimed and nothing written; a retry confirms', async () => {
      const id = await createIntent(pixIntent({ referenceId: 'locked-broken' }));
      await sql`CREATE FUNCTION test_fail_locked_event() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.body LIKE '%locked-broken%' THEN RAISE EXCEPTION 'event refused'; END IF; RETURN NEW; END $$`.execute(t.db.db);
      await sql`CREATE TRIGGER test_fail_locked_event BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION test_fail_locked_event()`.execute(t.db.db);
      try {
        const res = await confirm(id, 'k-locked-broken');
        assert.equal(res.statusCode, 500, res.body);
      } finally {
        await sql`DROP TRIGGER test_fail_locked_event ON events`.execute(t.db.db);
        await sql`DROP FUNCTION test_fail_locked_event()`.execute(t.db.db);
      }
      const row = await intentRow(id);
      assert.deepEqual([row.status, row.confirm_started_at, row.confirm_key, row.transaction_id], ['REQUIRES_CONFIRMATION', null, null, null]);
      assert.deepEqual(await xminOf('acquirer_charges', 'reference', id), []);
      assert.deepEqual(await xminOf('idempotency_keys', 'key', 'k-locked-broken'), []);
      const retry = await confirm(id, 'k-locked-broken');
      assert.equal(retry.statusCode, 201, retry.body);
    });

    test('20 concurrent twins (same key): one transaction; every answer the same bytes, one not a replay', async () => {
      const id = await createIntent(pixIntent({ referenceId: 'locked-twins' }));
      const answers = await Promise.all(Array.from({ length: 20 }, () => confirm(id, 'k-locked-twins')));
      const confirmed = answers.filter((a) => a.headers['idempotent-replayed'] === undefined);
      assert.equal(confirmed.length, 1, 'one request confirmed, the others replayed');
      for (const a of answers) assert.equal(a.statusCode, 201, a.body);
      for (const a of answers) assert.equal(a.body, confirmed[0]!.body);
      const transactions = await t.db.db.selectFrom('transactions').select('id').where('payment_intent_id', '=', id).execute();
      assert.equal(transactions.length, 1);
    });

    test('concurrent confirms under 10 different keys: one transaction, the others 409', async () => {
      const id = await createIntent(pixIntent({ referenceId: 'locked-rivals' }));
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => confirm(id, `k-locked-rival-${i}`)));
      assert.equal(answers.filter((a) => a.statusCode === 201).length, 1, answers.map((a) => a.statusCode).join(','));
      for (const a of answers.filter((x) => x.statusCode !== 201)) assertError(a, 409, 'INTENT_ALREADY_PROCESSED');
      const transactions = await t.db.db.selectFrom('transactions').select('id').where('payment_intent_id', '=', id).execute();
      assert.equal(transactions.length, 1);
    });
  });
}
