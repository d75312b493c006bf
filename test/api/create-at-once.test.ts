/**
 * The sandbox create-and-confirm (`confirm: true`, simulated provider), and a
 * create without `confirm`, written by one SQL statement with its
 * Idempotency-Key stored DONE in it (payment-intents createAtOnce,
 * db/one-statement.ts): the response is the
 * bytes a GET and the stored event show; a key that exists makes the
 * statement write nothing and the request falls back to the usual claim
 * (replay, reuse, in use, expired); a statement that fails leaves nothing
 * behind; concurrent twins create one intent.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { deliveredBody } from '../../src/modules/events/index.js';
import { IDEMPOTENCY_RETENTION_MS, requestFingerprint } from '../../src/modules/idempotency/index.js';
import { withQrImage, withQrImagesDrawn } from '../../src/modules/transactions/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/db.js';
import { settled } from '../helpers/outcome.js';
import { assertError } from '../helpers/assert.js';
import { boletoIntent, BUYER, cardIntent, pixIntent } from '../helpers/fixtures.js';

interface Intent {
  id: string;
  status: string;
  referenceId: string;
  transactionId: string;
}
interface IntentWithJson extends Intent {
  buyer: unknown;
  metadata: unknown;
  transaction: { buyer: unknown; paymentDetails: unknown; metadata: unknown };
}

/** Members in an order PostgreSQL's jsonb does not keep (longer keys first), so a view built from the input would differ. */
const unorderedBuyer = { address: { zipCode: '01304000', street: 'Rua Augusta', state: 'SP', number: '100', neighborhood: 'Consolação', city: 'São Paulo' }, email: BUYER.email, document: BUYER.document, name: BUYER.name };
const unorderedMetadata = { 'order-number': '77', zz: 'b', a: 'c', 'é': 'd' };

function assertReplayOf(replay: LightMyRequestResponse, first: LightMyRequestResponse): void {
  assert.equal(replay.statusCode, first.statusCode);
  assert.equal(replay.body, first.body, 'byte-identical body');
  assert.equal(replay.headers['idempotent-replayed'], 'true');
}

for (const engine of engines()) {
  describe(`create-and-confirm in one statement (${engine})`, () => {
    let t: TestApp;

    before(async () => {
      t = await startTestApp(engine);
    });
    after(() => t.close());

    const create = (key: string | undefined, payload: object) =>
      t.call({ method: 'POST', url: '/v2/payment-intents', headers: key === undefined ? {} : { 'idempotency-key': key }, payload });
    const get = (url: string) => t.call({ method: 'GET', url });
    const rowsOf = async (referenceId: string) => {
      const intents = await t.db.db.selectFrom('payment_intents').selectAll().where('company_id', '=', t.companyId).where('reference_id', '=', referenceId).execute();
      const ids = intents.map((i) => i.id);
      if (ids.length === 0) return { intents, transactions: [], events: [], charges: [] };
      const transactions = await t.db.db.selectFrom('transactions').selectAll().where('payment_intent_id', 'in', ids).execute();
      const trxIds = transactions.map((x) => x.id);
      const events = trxIds.length ? await t.db.db.selectFrom('events').selectAll().where('transaction_id', 'in', trxIds).execute() : [];
      const charges = await t.db.db.selectFrom('acquirer_charges').selectAll().where('reference', 'in', ids).execute();
      return { intents, transactions, events, charges };
    };
    const keyRow = (key: string) => t.db.db.selectFrom('idempotency_keys').selectAll().where('company_id', '=', t.companyId).where('key', '=', key).executeTakeFirst();

    /**
     * The response equals what GET answers, its transaction is the bytes its
     * transaction.created event carries, and its jsonb members are in the order
     * PostgreSQL gives them back (what a view built from a row read back shows).
     */
    async function assertAsStored(res: LightMyRequestResponse): Promise<Intent> {
      assert.equal(res.statusCode, 201, res.body);
      const intent = res.json<IntentWithJson>();
      assert.equal(intent.status, 'CONFIRMED');
      const { transaction, ...withoutTransaction } = intent;
      assert.deepEqual(transaction, (await get(`/v2/transactions/${intent.transactionId}`)).json());
      assert.deepEqual(withoutTransaction, (await get(`/v2/payment-intents/${intent.id}`)).json());
      const rows = await rowsOf(intent.referenceId);
      assert.equal(rows.events.length, 1);
      assert.equal(rows.events[0]!.type, 'transaction.created');
      const stored = rows.events[0]!.body;
      assert.ok(deliveredBody(stored).endsWith(`"data":{"transaction":${JSON.stringify(transaction)}}}`), 'the event delivers the same bytes');
      const [row] = rows.transactions;
      const [intentRow] = rows.intents;
      // The Pix QR image is answered, never stored: a pure function of the code beside it.
      for (const text of [stored, JSON.stringify(row!.payment_details)]) assert.ok(!text.includes('qrCodeImageBase64'), text);
      const bytes = (v: unknown) => JSON.stringify(v);
      assert.equal(bytes(transaction.buyer), bytes(row!.buyer));
      assert.equal(bytes(transaction.paymentDetails), bytes(withQrImage(row!.payment_details as Parameters<typeof withQrImage>[0])));
      assert.equal(bytes(transaction.metadata), bytes(row!.metadata ?? {}));
      assert.equal(bytes(intent.buyer), bytes(intentRow!.buyer));
      assert.equal(bytes(intent.metadata), bytes(intentRow!.metadata ?? {}));
      return intent;
    }

    test('Pix: the intent, its transaction, event, acquirer record and DONE key; a retry replays the same bytes', async () => {
      const body = pixIntent({ referenceId: 'once-pix', buyer: unorderedBuyer, metadata: unorderedMetadata, description: 'Pedido 77', confirm: true });
      const first = await create('k-once-pix', body);
      await assertAsStored(first);
      const row = await keyRow('k-once-pix');
      assert.equal(row?.state, 'DONE');
      assert.equal(row?.response_status, 201);
      // The key's response leaves the QR image out, as the event does; a replay draws it back in.
      const storedResponse = t.deps.sealer.open(row!.response_body!);
      assert.ok(!storedResponse.includes('qrCodeImageBase64'), storedResponse);
      assert.equal(withQrImagesDrawn(storedResponse), first.body);
      assertReplayOf(await create('k-once-pix', body), first);
      const rows = await rowsOf('once-pix');
      assert.equal(rows.intents.length, 1);
      assert.equal(rows.transactions.length, 1);
      assert.equal(rows.events.length, 1);
      assert.equal(rows.charges.length, 1);
      assert.equal(rows.intents[0]!.create_key, 'k-once-pix');
    });

    test('boleto: one statement after the sequence gives its number; GET, event and replay agree', async () => {
      const body = boletoIntent({ referenceId: 'once-boleto', metadata: unorderedMetadata, confirm: true });
      const first = await create('k-once-boleto', body);
      await assertAsStored(first);
      assertReplayOf(await create('k-once-boleto', body), first);
      assert.equal((await rowsOf('once-boleto')).transactions.length, 1);
    });

    test('without a key it still writes everything, and a webhook registered for the type gets its delivery', async () => {
      const hook = await t.call({ method: 'POST', url: '/v2/webhooks', payload: { url: 'https://hooks.example.com/once', events: ['transaction.created'] } });
      assert.equal(hook.statusCode, 201, hook.body);
      const res = await create(undefined, pixIntent({ referenceId: 'once-nokey', confirm: true }));
      await assertAsStored(res);
      const [event] = (await rowsOf('once-nokey')).events;
      const deliveries = await t.db.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', event!.id).execute();
      assert.deepEqual(deliveries.map((d) => [d.webhook_id, d.state]), [[hook.json<{ id: string }>().id, 'PENDING']]);
      await t.call({ method: 'DELETE', url: `/v2/webhooks/${hook.json<{ id: string }>().id}` });
    });

    test('the same key with another body is 422 IDEMPOTENCY_KEY_REUSED and writes nothing', async () => {
      assert.equal((await create('k-once-reuse', pixIntent({ referenceId: 'once-reuse', confirm: true }))).statusCode, 201);
      assertError(await create('k-once-reuse', pixIntent({ referenceId: 'once-reuse-2', confirm: true })), 422, 'IDEMPOTENCY_KEY_REUSED');
      assert.equal((await rowsOf('once-reuse-2')).intents.length, 0);
    });

    test('a key claimed STARTED by a running request is 409 IDEMPOTENCY_KEY_IN_USE; the statement wrote nothing', async () => {
      const body = pixIntent({ referenceId: 'once-inuse', confirm: true });
      settled(await t.services.idempotency.claim(t.companyId, 'k-once-inuse', requestFingerprint('POST', '/v2/payment-intents', {}, body), 201));
      assertError(await create('k-once-inuse', body), 409, 'IDEMPOTENCY_KEY_IN_USE');
      assert.deepEqual(await rowsOf('once-inuse'), { intents: [], transactions: [], events: [], charges: [] });
    });

    test('a key past its 24-hour retention goes through the usual claim, which answers the intent created under it', async () => {
      const body = pixIntent({ referenceId: 'once-retained', confirm: true });
      const first = await create('k-once-retained', body);
      assert.equal(first.statusCode, 201);
      t.clock.advance(IDEMPOTENCY_RETENTION_MS);
      const again = await create('k-once-retained', body);
      assert.equal(again.statusCode, 201, again.body);
      assert.equal(again.headers['idempotent-replayed'], undefined, 'the expired key was claimed again, not replayed');
      assert.equal(again.json<Intent>().id, first.json<Intent>().id, 'never a second intent under one create key');
      const rows = await rowsOf('once-retained');
      assert.equal(rows.intents.length, 1);
      assert.equal(rows.transactions.length, 1);
      assertReplayOf(await create('k-once-retained', body), again);
    });

    test('a silent provider: the intent FAILED and the 502 stored in the statement; the retry replays it', async () => {
      const body = pixIntent({ referenceId: 'once-silent', amountCents: 50_200, confirm: true });
      const first = await create('k-once-silent', body);
      assertError(first, 502, 'PROVIDER_ERROR');
      assert.equal((await keyRow('k-once-silent'))?.response_status, 502);
      assertReplayOf(await create('k-once-silent', body), first);
      const rows = await rowsOf('once-silent');
      assert.deepEqual(rows.intents.map((i) => [i.status, i.transaction_id]), [['FAILED', null]]);
      assert.equal(rows.charges.length, 0);
    });

    test('a statement that fails in its last part leaves nothing: no intent, record, transaction, event nor key', async () => {
      // An event insert that fails for this sale only: the statement's other parts ran before it.
      await sql`CREATE FUNCTION test_fail_event() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.body LIKE '%once-broken%' THEN RAISE EXCEPTION 'event refused'; END IF; RETURN NEW; END $$`.execute(t.db.db);
      await sql`CREATE TRIGGER test_fail_event BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION test_fail_event()`.execute(t.db.db);
      const body = pixIntent({ referenceId: 'once-broken', confirm: true });
      try {
        const res = await create('k-once-broken', body);
        assert.equal(res.statusCode, 500, res.body);
      } finally {
        await sql`DROP TRIGGER test_fail_event ON events`.execute(t.db.db);
        await sql`DROP FUNCTION test_fail_event()`.execute(t.db.db);
      }
      assert.deepEqual(await rowsOf('once-broken'), { intents: [], transactions: [], events: [], charges: [] });
      assert.equal(await keyRow('k-once-broken'), undefined);
      const retry = await create('k-once-broken', body);
      assert.equal(retry.statusCode, 201, retry.body);
      assert.equal((await rowsOf('once-broken')).intents.length, 1);
    });

    test('without confirm: the intent and its key DONE in one statement, never STARTED under a lease; the retry replays', async () => {
      const body = pixIntent({ referenceId: 'once-unconfirmed', buyer: unorderedBuyer, metadata: unorderedMetadata });
      const first = await create('k-once-unconfirmed', body);
      assert.equal(first.statusCode, 201, first.body);
      const intent = first.json<IntentWithJson>();
      assert.equal(intent.status, 'REQUIRES_CONFIRMATION');
      assert.deepEqual(intent, (await get(`/v2/payment-intents/${intent.id}`)).json());
      const key = await keyRow('k-once-unconfirmed');
      assert.deepEqual([key?.state, key?.response_status], ['DONE', 201]);
      // A key claimed first (the general path) keeps the 60-second lease it was STARTED with.
      assert.equal(key?.locked_until.getTime(), key?.created_at.getTime(), 'inserted DONE');
      const xmins = await sql<{ xmin: string }>`
        SELECT xmin::text AS xmin FROM payment_intents WHERE id = ${intent.id}
        UNION ALL SELECT xmin::text FROM idempotency_keys WHERE company_id = ${t.companyId} AND key = 'k-once-unconfirmed'`.execute(t.db.db);
      assert.equal(new Set(xmins.rows.map((r) => r.xmin)).size, 1, 'one transaction wrote both');
      assertReplayOf(await create('k-once-unconfirmed', body), first);
      assertError(await create('k-once-unconfirmed', { ...body, amountCents: 1 }), 422, 'IDEMPOTENCY_KEY_REUSED');
      assert.equal((await rowsOf('once-unconfirmed')).intents.length, 1);
    });

    test('a card intent without confirm: created at once with its tokenization; the replay is the same bytes', async () => {
      const body = cardIntent({ referenceId: 'once-card' });
      const first = await create('k-once-card', body);
      assert.equal(first.statusCode, 201, first.body);
      const intent = first.json<{ status: string; cardTokenization?: { ticket: string } }>();
      assert.equal(intent.status, 'REQUIRES_TOKEN');
      assert.ok(intent.cardTokenization?.ticket, first.body);
      assert.equal((await keyRow('k-once-card'))?.state, 'DONE');
      assertReplayOf(await create('k-once-card', body), first);
    });

    test('20 concurrent twins (same key and body): one intent, one transaction, one event; every answer the same bytes', async () => {
      const body = pixIntent({ referenceId: 'once-twins', confirm: true });
      const answers = await Promise.all(Array.from({ length: 20 }, () => create('k-once-twins', body)));
      const created = answers.filter((a) => a.headers['idempotent-replayed'] === undefined);
      assert.equal(created.length, 1, 'one request created, the others replayed');
      for (const a of answers) assert.equal(a.body, created[0]!.body);
      for (const a of answers) assert.equal(a.statusCode, 201);
      const rows = await rowsOf('once-twins');
      assert.equal(rows.intents.length, 1);
      assert.equal(rows.transactions.length, 1);
      assert.equal(rows.events.length, 1);
    });
  });
}
