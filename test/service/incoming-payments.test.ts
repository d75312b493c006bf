/**
 * Payments that arrive from a real provider, through a scripted provider
 * named like the Pix connector (so its notification route exists): a
 * notification is stored and answered at once, the worker confirms each
 * claim with the provider and applies it once; a forged claim or a wrong
 * amount changes nothing; a lost notification is found by reconciliation;
 * a charge we canceled is withdrawn at the provider. And a method switched
 * off is 422 PAYMENT_METHOD_UNAVAILABLE.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/database.js';
import type { Clock } from '../../src/lib/clock.js';
import { SimulatedProvider, type ReceivedPayment } from '../../src/modules/providers/index.js';
import { assertError } from '../helpers/assert.js';
import { engines } from '../helpers/db.js';
import { eventTypesOf, runWorkerStep, startTestApp, type TestApp } from '../helpers/app.js';
import { boletoIntent, cardIntent, pixIntent } from '../helpers/fixtures.js';

type Json = Record<string, any>;

/** The simulated provider, with a ledger of payments the test makes, under the Pix connector's name. */
class ScriptedProvider extends SimulatedProvider {
  override readonly name: string = 'bcb-api-pix';
  readonly payments = new Map<string, ReceivedPayment>();
  readonly canceled: string[] = [];
  verifications = 0;

  constructor(db: Db, private readonly now: Clock) {
    super(db, now);
  }

  /** A payment of `reference` as the provider records it; its id is returned. */
  pay(reference: string, amountCents: number): string {
    const paymentId = `E${randomUUID().replace(/-/g, '').slice(0, 31)}`;
    this.payments.set(paymentId, { paymentId, reference, amountCents, paidAt: this.now.now() });
    return paymentId;
  }

  override notificationClaims(body: unknown): string[] | undefined {
    const items = (body as { pix?: unknown } | null)?.pix;
    if (!Array.isArray(items)) return undefined;
    return items.map((item) => String((item as { endToEndId?: unknown }).endToEndId));
  }

  override async verifyPayment(paymentId: string): Promise<ReceivedPayment | undefined> {
    this.verifications++;
    return this.payments.get(paymentId);
  }

  override async paymentsOf(reference: string): Promise<ReceivedPayment[]> {
    return [...this.payments.values()].filter((p) => p.reference === reference);
  }

  override async cancel(reference: string): Promise<void> {
    this.canceled.push(reference);
  }
}

const NOTIFY = '/v2/provider-notifications/bcb-api-pix/pix';

for (const engine of engines()) {
  describe(`payments from a provider: notifications and reconciliation (${engine})`, () => {
    let t: TestApp;
    let psp: ScriptedProvider;
    before(async () => {
      t = await startTestApp(engine, { provider: (base) => (psp = new ScriptedProvider(base.db, base.clock)) });
    });
    after(() => t.close());

    /** A confirmed Pix: its transaction and the intent id (our reference at the provider). */
    const pendingPix = async (amountCents = 12_345): Promise<Json> => {
      const res = await t.call({ method: 'POST', url: '/v2/payment-intents', headers: { 'idempotency-key': randomUUID() }, payload: pixIntent({ amountCents, confirm: true, referenceId: `in-${randomUUID()}` }) });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().transaction;
    };
    const transaction = async (id: string): Promise<Json> => (await t.call({ method: 'GET', url: `/v2/transactions/${id}` })).json();
    const eventTypes = (id: string) => eventTypesOf(t, id);
    /** The row a real connector writes when it registers a charge (the scripted provider does not). */
    const rememberAtProvider = (trx: Json) =>
      t.db.db
        .insertInto('provider_charges')
        .values({ reference: trx.paymentIntentId, provider: 'bcb-api-pix', method: 'PIX', provider_key: trx.id.replace('_', ''), transaction_id: trx.id, amount_cents: trx.amountCents, created_at: t.clock.now() })
        .execute();
    const notify = (body: unknown) => t.app.inject({ method: 'POST', url: NOTIFY, payload: body as Json });

    test('a notification is answered at once without an API key; the worker confirms it with the provider; PAID once, however often it comes', async () => {
      const trx = await pendingPix();
      const paymentId = psp.pay(trx.paymentIntentId, 12_345);
      const body = { pix: [{ endToEndId: paymentId, txid: 'ignored', valor: '999999.99', horario: new Date().toISOString() }] };
      const first = await notify(body);
      assert.equal(first.statusCode, 200, first.body);
      assert.deepEqual(first.json(), { received: 1 });
      assert.equal((await transaction(trx.id)).status, 'PENDING', 'nothing is trusted before the worker asks the provider');
      assert.equal((await notify(body)).statusCode, 200);
      await runWorkerStep(t, 'process-provider-notifications');
      const paid = await transaction(trx.id);
      assert.equal(paid.status, 'PAID');
      assert.equal(paid.split.receivables.length > 0, true, 'receivables were created');
      assert.deepEqual(await eventTypes(trx.id), ['transaction.created', 'transaction.paid'], 'one transaction.paid for two notifications');
      const recorded = await t.db.db.selectFrom('received_payments').selectAll().where('payment_id', '=', paymentId).execute();
      assert.equal(recorded.length, 1);
      assert.equal(recorded[0]!.outcome, 'applied');
      assert.equal(Number(recorded[0]!.amount_cents), 12_345, 'the amount is the provider\'s, not the notification\'s');
    });

    test('a forged claim (the provider knows no such payment) and a wrong amount change nothing', async () => {
      const forged = await pendingPix();
      assert.equal((await notify({ pix: [{ endToEndId: `E${'9'.repeat(31)}`, txid: 'x', valor: '123.45' }] })).statusCode, 200);
      const short = await pendingPix(20_000);
      const shortId = psp.pay(short.paymentIntentId, 19_999);
      assert.equal((await notify({ pix: [{ endToEndId: shortId }] })).statusCode, 200);
      await runWorkerStep(t, 'process-provider-notifications');
      assert.equal((await transaction(forged.id)).status, 'PENDING');
      assert.equal((await transaction(short.id)).status, 'PENDING');
      assert.deepEqual(await eventTypes(short.id), ['transaction.created']);
      const outcome = await t.db.db.selectFrom('received_payments').select('outcome').where('payment_id', '=', shortId).executeTakeFirstOrThrow();
      assert.equal(outcome.outcome, 'amount_mismatch');
      const unconfirmed = await t.db.db.selectFrom('provider_notifications').select('outcome').where('payment_id', '=', `E${'9'.repeat(31)}`).executeTakeFirstOrThrow();
      assert.equal(unconfirmed.outcome, 'unconfirmed');
    });

    test('a body that is not a notification is 400 VALIDATION_ERROR naming the body; nothing is stored', async () => {
      const before = await t.db.db.selectFrom('provider_notifications').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      assertError(await notify({ hello: 'world' }), 400, 'VALIDATION_ERROR', 'body');
      const afterwards = await t.db.db.selectFrom('provider_notifications').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      assert.equal(Number(afterwards.n), Number(before.n));
    });

    test('a notification that never came: reconciliation asks the provider about the charge and pays it', async () => {
      const trx = await pendingPix();
      await rememberAtProvider(trx);
      await runWorkerStep(t, 'reconcile-provider-charges');
      assert.equal((await transaction(trx.id)).status, 'PENDING', 'nothing paid yet');
      psp.pay(trx.paymentIntentId, 12_345);
      t.clock.advance(61_000); // RECONCILE_INTERVAL_SECONDS (60) since the last check
      await runWorkerStep(t, 'reconcile-provider-charges');
      assert.equal((await transaction(trx.id)).status, 'PAID');
      assert.deepEqual(await eventTypes(trx.id), ['transaction.created', 'transaction.paid']);
      const charge = await t.db.db.selectFrom('provider_charges').select('settled_at').where('reference', '=', trx.paymentIntentId).executeTakeFirstOrThrow();
      assert.ok(charge.settled_at, 'a paid charge is not asked about again');
    });

    test('a charge whose window closed is canceled here and withdrawn at the provider', async () => {
      const trx = await pendingPix();
      await rememberAtProvider(trx);
      t.clock.advance(3_601_000); // past the default one-hour Pix window
      await runWorkerStep(t, 'cancel-overdue-transactions');
      assert.equal((await transaction(trx.id)).status, 'CANCELED');
      await runWorkerStep(t, 'reconcile-provider-charges');
      assert.ok(psp.canceled.includes(trx.paymentIntentId), 'withdrawn at the provider');
    });
  });

  describe(`a method switched off (${engine})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine, { disabled: ['PIX', 'CREDIT_CARD'] });
    });
    after(() => t.close());

    test('creating a Pix or card intent is 422 PAYMENT_METHOD_UNAVAILABLE naming paymentMethod; boleto still works', async () => {
      for (const payload of [pixIntent({ confirm: true }), cardIntent()]) {
        const res = await t.call({ method: 'POST', url: '/v2/payment-intents', headers: { 'idempotency-key': randomUUID() }, payload });
        assertError(res, 422, 'PAYMENT_METHOD_UNAVAILABLE', 'paymentMethod');
      }
      const boleto = await t.call({ method: 'POST', url: '/v2/payment-intents', headers: { 'idempotency-key': randomUUID() }, payload: boletoIntent({ confirm: true }) });
      assert.equal(boleto.statusCode, 201, boleto.body);
      assert.equal(await t.db.db.selectFrom('payment_intents').select('id').where('payment_method', '=', 'PIX').executeTakeFirst(), undefined, 'no half-written intent');
    });

    test('the notification routes exist only for a configured connector', async () => {
      const res = await t.app.inject({ method: 'POST', url: NOTIFY, payload: { pix: [] } });
      assert.equal(res.statusCode, 404);
    });
  });
}
