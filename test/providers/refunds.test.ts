/**
 * Refunds through the real connectors, over HTTP like a seller: a Pix
 * devolução at the local PSP (every request and answer checked against the
 * BCB's OpenAPI document), followed by the worker until DEVOLVIDO (SUCCEEDED)
 * or NAO_REALIZADO (FAILED); and card refunds as voids at the local Cielo,
 * including a void whose answer was lost and a process that died between the
 * void and its record: the refund is resolved from Cielo's VoidedAmount, and
 * nothing is refunded twice.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { txidOf } from '../../src/modules/providers/bcb-pix/mapping.js';
import { CieloProvider } from '../../src/modules/providers/cielo/index.js';
import { engines } from '../helpers/db.js';
import { runWorkerStep, startTestApp, tokenizeCard, type TestApp } from '../helpers/app.js';
import { assertError } from '../helpers/assert.js';
import { cardIntent, pixIntent } from '../helpers/fixtures.js';
import { DyingProvider } from '../helpers/provider.js';
import { createTestCa, type TestCa } from '../helpers/test-ca.js';
import { startLocalCielo, type LocalCielo } from './local-cielo.js';
import type { LocalPsp } from './local-psp.js';
import { startPixTestApp, type PixTestApp } from './pix-test-app.js';

type Json = Record<string, any>;

const PSP = { clientId: 'svc-refunds', clientSecret: `psp-${randomUUID()}`, pixKey: 'pagamentos@example.com' };
const CIELO = { merchantId: randomUUID(), merchantKey: randomBytes(30).toString('base64url').slice(0, 40) };
/** Past ASK_WINDOW_MS (refunds/rules.ts) and the Idempotency-Key's lease. */
const PAST_ASK_WINDOW_MS = 121_000;
/** RECONCILE_INTERVAL_SECONDS (60 by default), and a second. */
const RECONCILE_INTERVAL_MS = 61_000;
/** FOLLOW_INTERVAL_MS (refunds/rules.ts). */
const FOLLOW_INTERVAL_MS = 15_000;

function refundCall(t: TestApp, transactionId: string, payload?: Json, key: string = randomUUID()) {
  return t.call({
    method: 'POST',
    url: `/v2/transactions/${transactionId}/refunds`,
    headers: { 'idempotency-key': key, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}
async function transactionOf(t: TestApp, id: string): Promise<Json> {
  const res = await t.call({ method: 'GET', url: `/v2/transactions/${id}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}
async function refundOf(t: TestApp, id: string): Promise<Json> {
  const res = await t.call({ method: 'GET', url: `/v2/refunds/${id}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}
async function eventsOf(t: TestApp, transactionId: string): Promise<Json[]> {
  const rows = await t.db.db.selectFrom('events').select('body').where('transaction_id', '=', transactionId).orderBy('id').execute();
  return rows.map((r) => JSON.parse(r.body) as Json);
}

for (const engine of engines()) {
  describe(`Pix devoluções through the local PSP (${engine})`, () => {
    let app: PixTestApp;
    let psp: LocalPsp;
    let t: TestApp;
    before(async () => {
      app = await startPixTestApp(engine, PSP);
      ({ psp, t } = app);
    });
    after(() => app.close());

    /** A Pix paid at the PSP and found by reconciliation: PAID, its endToEndId recorded. */
    const paidPix = async (amountCents: number): Promise<{ trx: Json; e2e: string }> => {
      const res = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ amountCents, confirm: true, referenceId: `dev-${randomUUID()}` }) });
      assert.equal(res.statusCode, 201, res.body);
      const trx = res.json().transaction;
      const e2e = await psp.pay(txidOf(trx.id), { notify: false });
      t.clock.advance(RECONCILE_INTERVAL_MS); // a charge is first asked about one interval after it was sent
      await runWorkerStep(t, 'reconcile-provider-charges');
      assert.equal((await transactionOf(t, trx.id)).status, 'PAID');
      return { trx, e2e };
    };

    test('a devolução is PENDING until the PSP settles it; the worker follows it to SUCCEEDED, then to FAILED for a refused one', async () => {
      const hook = await t.call({ method: 'POST', url: '/v2/webhooks', payload: { url: 'https://hooks.example.com/refunds', events: ['refund.failed'] } });
      assert.equal(hook.statusCode, 201, hook.body);
      const { trx, e2e } = await paidPix(10_000);
      const first = await refundCall(t, trx.id, { amountCents: 4_000, reason: 'Produto devolvido' });
      assert.equal(first.statusCode, 201, first.body);
      const asked = first.json();
      assert.equal(asked.status, 'PENDING');
      const put = psp.requests.find((r) => r.method === 'PUT' && r.path.startsWith(`/pix/${e2e}/devolucao/`));
      assert.ok(put, 'the devolução names the endToEndId of the payment');
      assert.equal(put.path, `/pix/${e2e}/devolucao/${asked.id.replace('_', '')}`, 'keyed by our refund id');
      assert.deepEqual(put.body, { valor: '40.00' });
      let sale = await transactionOf(t, trx.id);
      assert.deepEqual([sale.status, sale.refundedCents], ['PAID', 0], 'nothing changes while the devolução is in progress');
      assertError(await refundCall(t, trx.id, { amountCents: 6_001 }), 409, 'REFUND_EXCEEDS_AVAILABLE', 'amountCents');

      await runWorkerStep(t, 'follow-refunds');
      assert.equal((await refundOf(t, asked.id)).status, 'PENDING', 'not looked at before its interval');
      t.clock.advance(FOLLOW_INTERVAL_MS);
      await runWorkerStep(t, 'follow-refunds');
      const done = await refundOf(t, asked.id);
      assert.equal(done.status, 'SUCCEEDED');
      sale = await transactionOf(t, trx.id);
      assert.deepEqual([sale.status, sale.refundedCents, sale.feeCents], ['PAID', 4_000, 99 - Math.floor((99 * 4_000) / 10_000)]);

      psp.refuseRefunds('Saldo insuficiente na conta do recebedor');
      const second = (await refundCall(t, trx.id)).json();
      assert.deepEqual([second.status, second.amountCents], ['PENDING', 6_000]);
      t.clock.advance(FOLLOW_INTERVAL_MS);
      await runWorkerStep(t, 'follow-refunds');
      const refused = await refundOf(t, second.id);
      assert.equal(refused.status, 'FAILED');
      assert.equal(refused.failureReason, 'Saldo insuficiente na conta do recebedor');
      sale = await transactionOf(t, trx.id);
      assert.deepEqual([sale.status, sale.refundedCents], ['PAID', 4_000], 'a failed refund changes nothing');
      const failedEvent = (await eventsOf(t, trx.id)).find((e) => e.type === 'refund.failed');
      assert.deepEqual(failedEvent?.data.refund, refused);
      const deliveries = await t.db.db.selectFrom('webhook_deliveries').select(['event_id', 'webhook_id']).where('webhook_id', '=', hook.json().id).execute();
      assert.deepEqual(deliveries, [{ event_id: failedEvent!.id, webhook_id: hook.json().id }], 'refund.failed goes to the registration that selected it, and nothing else does');

      // A FAILED refund no longer holds its amount: it can be asked again.
      psp.refuseRefunds(undefined);
      const third = (await refundCall(t, trx.id)).json();
      assert.equal(third.amountCents, 6_000);
      t.clock.advance(FOLLOW_INTERVAL_MS);
      await runWorkerStep(t, 'follow-refunds');
      assert.equal((await refundOf(t, third.id)).status, 'SUCCEEDED');
      sale = await transactionOf(t, trx.id);
      assert.deepEqual([sale.status, sale.refundedCents, sale.feeCents, sale.netAmountCents], ['CANCELED', 10_000, 0, 0]);
      assert.deepEqual(
        (await eventsOf(t, trx.id)).map((e) => e.type),
        ['transaction.created', 'transaction.paid', 'refund.succeeded', 'refund.failed', 'refund.succeeded', 'transaction.canceled'],
      );
      assert.deepEqual(psp.violations, []);
    });
  });

  describe(`card refunds through the local Cielo (${engine})`, () => {
    let ca: TestCa;
    let cielo: LocalCielo;
    let connector: CieloProvider;
    let acquirer: DyingProvider;
    let t: TestApp;
    before(async () => {
      ca = createTestCa();
      cielo = await startLocalCielo({ ca, ...CIELO });
      t = await startTestApp(engine, {
        provider: (base) => {
          connector = new CieloProvider({ apiUrl: cielo.apiUrl, queryUrl: cielo.queryUrl, ...CIELO, boletoProvider: 'Bradesco2' }, { db: base.db, clock: base.clock, extraCa: ca.ca });
          return (acquirer = new DyingProvider(connector));
        },
      });
    });
    after(async () => {
      await t.close();
      await connector.close();
      await cielo.close();
    });

    /** A card sale authorized and captured at the local Cielo; answers the transaction and Cielo's PaymentId. */
    const cardSale = async (amountCents: number): Promise<{ trx: Json; paymentId: string }> => {
      const created = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: cardIntent({ amountCents, referenceId: `cv-${randomUUID()}` }) });
      assert.equal(created.statusCode, 201, created.body);
      const intent = created.json();
      const { token } = await tokenizeCard(t, intent.cardTokenization);
      const res = await t.call({ method: 'POST', url: `/v2/payment-intents/${intent.id}/confirm`, headers: { 'idempotency-key': randomUUID() }, payload: { token } });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().status, 'PAID');
      const charge = await t.db.db.selectFrom('provider_charges').select('provider_id').where('reference', '=', intent.id).executeTakeFirstOrThrow();
      return { trx: res.json(), paymentId: charge.provider_id! };
    };
    const voidsOf = (paymentId: string) => cielo.requests.filter((r) => r.method === 'PUT' && r.url.startsWith(`/api/1/sales/${paymentId}/void`));

    test('a partial refund is a void of that amount; a void whose answer was lost stays PENDING and is resolved from VoidedAmount, never voided twice', async () => {
      const { trx, paymentId } = await cardSale(10_000);
      const first = await refundCall(t, trx.id, { amountCents: 3_000 });
      assert.equal(first.statusCode, 201, first.body);
      assert.equal(first.json().status, 'SUCCEEDED');
      assert.equal(cielo.sale(paymentId)!.Payment.VoidedAmount, 3_000);
      assert.equal(voidsOf(paymentId).at(-1)!.url, `/api/1/sales/${paymentId}/void?amount=3000`);

      cielo.dropNextVoidAnswer();
      const key = randomUUID();
      const lost = await refundCall(t, trx.id, { amountCents: 2_000 }, key);
      assert.equal(lost.statusCode, 201, lost.body);
      assert.equal(lost.json().status, 'PENDING', 'no answer: the outcome is not guessed');
      assert.equal(cielo.sale(paymentId)!.Payment.VoidedAmount, 5_000, 'Cielo did void it');
      const replay = await refundCall(t, trx.id, { amountCents: 2_000 }, key);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.body, lost.body);
      assertError(await refundCall(t, trx.id, { amountCents: 1_000 }), 409, 'REFUND_IN_PROGRESS');
      assert.equal((await transactionOf(t, trx.id)).refundedCents, 3_000);

      await runWorkerStep(t, 'follow-refunds');
      assert.equal((await refundOf(t, lost.json().id)).status, 'PENDING', 'no look while a call may still be in flight');
      t.clock.advance(PAST_ASK_WINDOW_MS);
      await runWorkerStep(t, 'follow-refunds');
      assert.equal((await refundOf(t, lost.json().id)).status, 'SUCCEEDED');
      assert.equal(voidsOf(paymentId).length, 2, 'two voids for two refunds');
      assert.equal(cielo.sale(paymentId)!.Payment.VoidedAmount, 5_000);
      const sale = await transactionOf(t, trx.id);
      assert.deepEqual([sale.status, sale.refundedCents], ['PAID', 5_000]);
    });

    test('the process dies between the void and its record: the worker resolves the refund from Cielo, and a retry answers it without voiding again', async () => {
      const { trx, paymentId } = await cardSale(8_000);
      const key = randomUUID();
      const dead = acquirer.dieOnNextRefund();
      void refundCall(t, trx.id, undefined, key); // never answers: its process "died" after Cielo voided
      await dead;
      assert.equal(cielo.sale(paymentId)!.Payment.VoidedAmount, 8_000);
      const [row] = await t.db.db.selectFrom('refunds').selectAll().where('transaction_id', '=', trx.id).execute();
      assert.equal(row!.status, 'PENDING');

      t.clock.advance(PAST_ASK_WINDOW_MS);
      await runWorkerStep(t, 'follow-refunds');
      assert.equal((await refundOf(t, row!.id)).status, 'SUCCEEDED');
      const sale = await transactionOf(t, trx.id);
      assert.deepEqual([sale.status, sale.refundedCents, sale.feeCents, sale.netAmountCents], ['CANCELED', 8_000, 0, 0]);

      // The client retries with its key once the key's lease ran out: the same refund, done, and no second void.
      const retry = await refundCall(t, trx.id, undefined, key);
      assert.equal(retry.statusCode, 201, retry.body);
      assert.deepEqual([retry.json().id, retry.json().status], [row!.id, 'SUCCEEDED']);
      assert.equal(voidsOf(paymentId).length, 1);
      assert.equal((await t.db.db.selectFrom('refunds').select('id').where('transaction_id', '=', trx.id).execute()).length, 1);
      assert.deepEqual(
        (await eventsOf(t, trx.id)).map((e) => e.type),
        ['transaction.created', 'transaction.paid', 'refund.succeeded', 'transaction.canceled'],
      );
    });
  });
}
