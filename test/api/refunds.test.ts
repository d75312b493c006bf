/**
 * Refunds and chargebacks through the API in the sandbox (simulated
 * provider): full and partial refunds of card and Pix sales, the fee returned
 * pro rata, the refusals (409 REFUND_EXCEEDS_AVAILABLE, 409
 * TRANSACTION_NOT_REFUNDABLE, validation), Idempotency-Key replay and reuse,
 * split receivables after refunds (PENDING lines reduced, PAID ones answered
 * by negative adjustment lines), the events and their webhook delivery, the
 * sandbox chargeback, and no fee on a sale that took no money.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Sender, SendResult } from '../../src/modules/webhooks/index.js';
import { engines } from '../helpers/db.js';
import { RECIPIENTS, startTestApp, tokenizeCard, runWorker, type TestApp } from '../helpers/app.js';
import { assertError } from '../helpers/assert.js';
import { boletoIntent, cardIntent, fixed, pct, pixIntent } from '../helpers/fixtures.js';

type Json = Record<string, any>;
const [A, B] = RECIPIENTS as [string, string];

class CapturingSender implements Sender {
  bodies: Json[] = [];
  async send(_url: string, _headers: Record<string, string>, body: string): Promise<SendResult> {
    this.bodies.push(JSON.parse(body) as Json);
    return { statusCode: 200 };
  }
}

const sum = (lines: Json[], key: string) => lines.reduce((s, l) => s + (l[key] as number), 0);

/** The invariants of a transaction after any refunds (README "Refunds"). */
function assertRefundInvariants(trx: Json): void {
  const lines = trx.split.receivables as Json[];
  assert.equal(trx.feeCents + trx.netAmountCents + trx.refundedCents + (trx.chargedBackCents ?? 0), trx.amountCents, 'fee + net + refunded (+ charged back) = amount');
  assert.equal(sum(lines, 'grossAmountCents'), trx.amountCents - trx.refundedCents - (trx.chargedBackCents ?? 0), 'Σ gross = amount − refunded');
  assert.equal(sum(lines, 'feeCents'), trx.feeCents, 'Σ fee = fee kept');
  assert.equal(sum(lines, 'amountCents'), trx.netAmountCents, 'Σ amount = net');
  for (const l of lines) {
    assert.equal(l.grossAmountCents, l.feeCents + l.amountCents);
    if (!l.adjustment) assert.ok(l.feeCents >= 0 && l.amountCents >= 0, `a sale line is negative: ${JSON.stringify(l)}`);
  }
}

for (const engine of engines()) {
  describe(`refunds in the sandbox on ${engine}`, () => {
    let t: TestApp;
    const sender = new CapturingSender();
    before(async () => {
      t = await startTestApp(engine, { sender });
    });
    after(() => t.close());

    const refund = (transactionId: string, payload?: Json, key: string = randomUUID()) =>
      t.call({
        method: 'POST',
        url: `/v2/transactions/${transactionId}/refunds`,
        headers: { 'idempotency-key': key, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
      });
    const getTransaction = async (id: string): Promise<Json> => {
      const res = await t.call({ method: 'GET', url: `/v2/transactions/${id}` });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const eventsOf = async (transactionId: string): Promise<Json[]> => {
      const rows = await t.db.db.selectFrom('events').select('body').where('transaction_id', '=', transactionId).orderBy('id').execute();
      return rows.map((r) => JSON.parse(r.body) as Json);
    };
    const paidPix = async (overrides: Json = {}): Promise<Json> => {
      const res = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ confirm: true, referenceId: `pix-${randomUUID()}`, ...overrides }) });
      assert.equal(res.statusCode, 201, res.body);
      const paid = await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${res.json().transaction.id}/pay` });
      assert.equal(paid.statusCode, 200, paid.body);
      return paid.json();
    };
    const cardSale = async (overrides: Json = {}, number?: string): Promise<Json> => {
      const created = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: cardIntent({ referenceId: `card-${randomUUID()}`, ...overrides }) });
      assert.equal(created.statusCode, 201, created.body);
      const intent = created.json();
      const { token } = await tokenizeCard(t, intent.cardTokenization, number);
      const res = await t.call({ method: 'POST', url: `/v2/payment-intents/${intent.id}/confirm`, headers: { 'idempotency-key': randomUUID() }, payload: { token } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json();
    };

    test('a full card refund: SUCCEEDED, the transaction CANCELED with all of its fee returned, refund.succeeded then transaction.canceled', async () => {
      const sale = await cardSale({ amountCents: 15_990 });
      assert.equal(sale.status, 'PAID');
      assert.equal(sale.feeCents, 558);
      assert.equal(sale.refundedCents, 0);
      const res = await refund(sale.id, { reason: 'Cliente desistiu' });
      assert.equal(res.statusCode, 201, res.body);
      const body = res.json();
      assert.match(body.id, /^rf_/);
      assert.deepEqual({ ...body, id: undefined, createdAt: undefined, updatedAt: undefined }, {
        id: undefined,
        transactionId: sale.id,
        status: 'SUCCEEDED',
        amountCents: 15_990,
        reason: 'Cliente desistiu',
        createdAt: undefined,
        updatedAt: undefined,
      });
      const after = await getTransaction(sale.id);
      assert.equal(after.status, 'CANCELED');
      assert.deepEqual([after.amountCents, after.refundedCents, after.feeCents, after.netAmountCents], [15_990, 15_990, 0, 0]);
      assertRefundInvariants(after);
      for (const line of after.split.receivables) assert.deepEqual([line.grossAmountCents, line.feeCents, line.amountCents], [0, 0, 0]);
      const events = await eventsOf(sale.id);
      assert.deepEqual(events.map((e) => e.type), ['transaction.created', 'transaction.paid', 'refund.succeeded', 'transaction.canceled']);
      assert.deepEqual(events[2]!.data.refund, body);
      assert.equal(events[2]!.data.transaction.status, 'CANCELED');
      assert.deepEqual(events[3]!.data.transaction, after);
      const got = await t.call({ method: 'GET', url: `/v2/refunds/${body.id}` });
      assert.equal(got.statusCode, 200);
      assert.equal(got.body, res.body, 'GET answers the same bytes as the create');
      // Nothing is left: another refund is refused.
      assertError(await refund(sale.id), 409, 'TRANSACTION_NOT_REFUNDABLE');
    });

    test('partial Pix refunds: the transaction stays PAID, the fee is returned pro rata on the cumulative amount, the last one cancels', async () => {
      const sale = await paidPix({ amountCents: 10_000 });
      assert.equal(sale.feeCents, 99);
      const first = await refund(sale.id, { amountCents: 3_333 });
      assert.equal(first.statusCode, 201, first.body);
      assert.equal(first.json().status, 'SUCCEEDED');
      let trx = await getTransaction(sale.id);
      assert.equal(trx.status, 'PAID');
      assert.equal(trx.refundedCents, 3_333);
      assert.equal(trx.feeCents, 99 - Math.floor((99 * 3_333) / 10_000));
      assert.equal(trx.netAmountCents, 10_000 - 3_333 - trx.feeCents);
      assertRefundInvariants(trx);
      const second = await refund(sale.id, { amountCents: 3_333 });
      assert.equal(second.json().status, 'SUCCEEDED');
      trx = await getTransaction(sale.id);
      assert.equal(trx.feeCents, 99 - Math.floor((99 * 6_666) / 10_000), 'computed on the cumulative amount, not per refund');
      assertRefundInvariants(trx);
      // Without an amount: all that is left.
      const rest = await refund(sale.id);
      assert.equal(rest.json().amountCents, 3_334);
      trx = await getTransaction(sale.id);
      assert.equal(trx.status, 'CANCELED');
      assert.deepEqual([trx.refundedCents, trx.feeCents, trx.netAmountCents], [10_000, 0, 0]);
      assertRefundInvariants(trx);
      const list = await t.call({ method: 'GET', url: `/v2/transactions/${sale.id}/refunds?limit=2` });
      assert.equal(list.statusCode, 200);
      assert.deepEqual(list.json().data.map((r: Json) => r.id), [rest.json().id, second.json().id]);
      assert.equal(list.json().hasMore, true);
      const next = await t.call({ method: 'GET', url: `/v2/transactions/${sale.id}/refunds?startingAfter=${second.json().id}` });
      assert.deepEqual(next.json(), { data: [first.json()], hasMore: false });
      const types = (await eventsOf(sale.id)).map((e) => e.type);
      assert.deepEqual(types, ['transaction.created', 'transaction.paid', 'refund.succeeded', 'refund.succeeded', 'refund.succeeded', 'transaction.canceled']);
    });

    test('over-refund, boleto, unpaid and bad input are refused and refund nothing', async () => {
      const sale = await paidPix({ amountCents: 5_000 });
      const over = assertError(await refund(sale.id, { amountCents: 5_001 }), 409, 'REFUND_EXCEEDS_AVAILABLE', 'amountCents');
      assert.match(over.message, /5000/);
      assert.equal((await refund(sale.id, { amountCents: 4_000 })).statusCode, 201);
      assertError(await refund(sale.id, { amountCents: 1_001 }), 409, 'REFUND_EXCEEDS_AVAILABLE', 'amountCents');
      assertError(await refund(sale.id, { amountCents: 0 }), 400, 'VALIDATION_ERROR', 'amountCents');
      assertError(await refund(sale.id, { amountCents: 10.5 }), 400, 'VALIDATION_ERROR', 'amountCents');
      assertError(await refund(sale.id, { reason: 'x'.repeat(256) }), 400, 'VALIDATION_ERROR', 'reason');
      assertError(await refund(sale.id, { amount: 1 }), 400, 'VALIDATION_ERROR');
      assertError(await t.call({ method: 'POST', url: `/v2/transactions/${sale.id}/refunds` }), 400, 'VALIDATION_ERROR', 'Idempotency-Key');
      assertError(await refund('trx_01jd8x7k2m9q4r5s6t7v8w9x0y'), 404, 'NOT_FOUND');
      assertError(await refund('pi_01jd8x7k2m9q4r5s6t7v8w9x0y'), 404, 'NOT_FOUND');
      assert.equal((await getTransaction(sale.id)).refundedCents, 4_000);

      const boleto = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: boletoIntent({ confirm: true, referenceId: `b-${randomUUID()}` }) });
      const boletoId = boleto.json().transaction.id;
      assert.equal((await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${boletoId}/pay` })).statusCode, 200);
      assert.match(assertError(await refund(boletoId), 409, 'TRANSACTION_NOT_REFUNDABLE').message, /boleto/i);

      const pending = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ confirm: true, referenceId: `p-${randomUUID()}` }) });
      assertError(await refund(pending.json().transaction.id), 409, 'TRANSACTION_NOT_REFUNDABLE');
      const count = await t.db.db.selectFrom('refunds').select('id').where('transaction_id', 'in', [boletoId, pending.json().transaction.id]).execute();
      assert.equal(count.length, 0);
    });

    test('concurrent refunds of one sale serialize on its row: together they never exceed its amount', async () => {
      const sale = await paidPix({ amountCents: 10_000 });
      const answers = await Promise.all(Array.from({ length: 6 }, () => refund(sale.id, { amountCents: 3_000 })));
      const statuses = answers.map((r) => r.statusCode).sort();
      assert.deepEqual(statuses, [201, 201, 201, 409, 409, 409], answers.map((r) => r.body).join('\n'));
      for (const r of answers.filter((a) => a.statusCode === 409)) assertError(r, 409, 'REFUND_EXCEEDS_AVAILABLE', 'amountCents');
      const trx = await getTransaction(sale.id);
      assert.deepEqual([trx.status, trx.refundedCents], ['PAID', 9_000]);
      assertRefundInvariants(trx);
    });

    test('Idempotency-Key: the same request replays the first response byte for byte; another body under the key is 422', async () => {
      const sale = await paidPix({ amountCents: 8_000 });
      const key = randomUUID();
      const first = await refund(sale.id, { amountCents: 1_000 }, key);
      assert.equal(first.statusCode, 201);
      const again = await refund(sale.id, { amountCents: 1_000 }, key);
      assert.equal(again.statusCode, 201);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body, first.body);
      assertError(await refund(sale.id, { amountCents: 2_000 }, key), 422, 'IDEMPOTENCY_KEY_REUSED');
      const trx = await getTransaction(sale.id);
      assert.equal(trx.refundedCents, 1_000, 'refunded once');
      assert.equal((await eventsOf(sale.id)).filter((e) => e.type === 'refund.succeeded').length, 1);
    });

    test('split receivables: a refund reduces PENDING lines (latest installment first); once lines were paid out, negative adjustment lines', async () => {
      const sale = await cardSale({ amountCents: 30_000, installments: 3, splitRules: [pct(A, 30), fixed(B, 5_000)] });
      assert.equal(sale.split.receivables.length, 9);
      const partial = await refund(sale.id, { amountCents: 6_000 });
      assert.equal(partial.json().status, 'SUCCEEDED');
      let trx = await getTransaction(sale.id);
      assertRefundInvariants(trx);
      assert.ok(trx.split.receivables.every((l: Json) => !l.adjustment), 'PENDING lines covered it');
      const before = new Map<string, Json>(sale.split.receivables.map((l: Json) => [`${l.recipientDocument}/${l.installment}`, l]));
      const changed = trx.split.receivables.filter((l: Json) => l.grossAmountCents !== before.get(`${l.recipientDocument}/${l.installment}`)!.grossAmountCents);
      assert.ok(changed.length > 0 && changed.every((l: Json) => l.installment === 3), 'taken from the latest installment first');
      for (const doc of [A, B]) {
        const own = trx.split.receivables.filter((l: Json) => l.recipientDocument === doc);
        assert.ok(sum(own, 'grossAmountCents') < sum(sale.split.receivables.filter((l: Json) => l.recipientDocument === doc), 'grossAmountCents'), `${doc} gave back its share`);
      }

      // Everything paid out to the accounts: the rest comes back through adjustment lines.
      assert.equal((await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${sale.id}/settle` })).statusCode, 200);
      t.clock.set(new Date('2026-11-27T12:00:00.000Z')); // a Friday: the adjustment is due Monday
      const rest = await refund(sale.id);
      assert.equal(rest.json().status, 'SUCCEEDED');
      trx = await getTransaction(sale.id);
      assert.equal(trx.status, 'CANCELED');
      assertRefundInvariants(trx);
      const adjustments = trx.split.receivables.filter((l: Json) => l.adjustment);
      assert.equal(adjustments.length, 3, 'one per account');
      for (const line of adjustments) {
        assert.deepEqual([line.adjustment, line.refundId, line.installment, line.status, line.expectedOn], ['REFUND', rest.json().id, 0, 'PENDING', '2026-11-30']);
        assert.ok(line.amountCents < 0 && line.grossAmountCents < 0 && line.feeCents <= 0);
      }
      for (const doc of new Set(trx.split.receivables.map((l: Json) => l.recipientDocument))) {
        const own = trx.split.receivables.filter((l: Json) => l.recipientDocument === doc);
        assert.deepEqual([sum(own, 'grossAmountCents'), sum(own, 'feeCents'), sum(own, 'amountCents')], [0, 0, 0], `a full refund leaves ${doc} at zero`);
      }
      const listed = await t.call({ method: 'GET', url: `/v2/receivables?expectedOnFrom=2026-11-30&expectedOnTo=2026-11-30` });
      assert.ok(listed.json().data.some((l: Json) => l.transactionId === sale.id && l.refundId === rest.json().id));
      t.clock.set(new Date('2026-11-21T12:00:00.000Z'));
    });

    test('refund.succeeded is delivered to a registration that selected it, with the refund and the transaction', async () => {
      const url = `https://hooks.example.com/refunds-${randomUUID()}`;
      const hook = await t.call({ method: 'POST', url: '/v2/webhooks', payload: { url, events: ['refund.succeeded', 'refund.failed'] } });
      assert.equal(hook.statusCode, 201, hook.body);
      const sale = await paidPix({ amountCents: 2_000 });
      const res = await refund(sale.id, { amountCents: 500 });
      sender.bodies = [];
      await t.services.deliveries.runOnce();
      const delivered = sender.bodies.filter((b) => b.data.transaction.id === sale.id);
      assert.deepEqual(delivered.map((b) => b.type), ['refund.succeeded'], 'only the types it selected');
      assert.deepEqual(delivered[0]!.data.refund, res.json());
      assert.equal(delivered[0]!.data.transaction.refundedCents, 500);
      const events = await t.call({ method: 'GET', url: '/v2/events?type=refund.succeeded&limit=1' });
      assert.equal(events.statusCode, 200, events.body);
      assert.equal(events.json().data[0].data.refund.id, res.json().id);
      await t.call({ method: 'DELETE', url: `/v2/webhooks/${hook.json().id}` });
    });

    test('sandbox chargeback of a PAID card sale: CANCELED, chargedBackAt, receivables reversed, transaction.canceled; anything else 409', async () => {
      const sale = await cardSale({ amountCents: 12_000, installments: 2, splitRules: [pct(A, 50)] });
      await refund(sale.id, { amountCents: 2_000 });
      const res = await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${sale.id}/chargeback` });
      assert.equal(res.statusCode, 200, res.body);
      const trx = res.json();
      assert.equal(trx.status, 'CANCELED');
      assert.equal(trx.chargedBackAt, t.clock.now().toISOString());
      assert.deepEqual([trx.refundedCents, trx.chargedBackCents, trx.feeCents, trx.netAmountCents], [2_000, 10_000, 0, 0]);
      assertRefundInvariants(trx);
      assert.deepEqual(await getTransaction(sale.id), trx);
      const types = (await eventsOf(sale.id)).map((e) => e.type);
      assert.deepEqual(types, ['transaction.created', 'transaction.paid', 'refund.succeeded', 'transaction.canceled']);
      assertError(await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${sale.id}/chargeback` }), 409, 'TRANSACTION_NOT_REFUNDABLE');
      assertError(await refund(sale.id), 409, 'TRANSACTION_NOT_REFUNDABLE');
      const pix = await paidPix();
      assertError(await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${pix.id}/chargeback` }), 409, 'TRANSACTION_NOT_REFUNDABLE');
    });

    test('a sale that never took money takes no fee: a refused card, a sandbox fail, an expired Pix', async () => {
      const refused = await cardSale({ amountCents: 15_990 }, '4111113111110002');
      assert.equal(refused.status, 'FAILED');
      assert.deepEqual([refused.feeCents, refused.netAmountCents, refused.refundedCents], [0, 0, 0]);
      assertError(await refund(refused.id), 409, 'TRANSACTION_NOT_REFUNDABLE');

      const created = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ confirm: true, referenceId: `f-${randomUUID()}` }) });
      assert.equal(created.json().transaction.feeCents, 99, 'a PENDING sale shows the fee it will take');
      const failed = await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${created.json().transaction.id}/fail` });
      assert.deepEqual([failed.json().status, failed.json().feeCents, failed.json().netAmountCents], ['CANCELED', 0, 0]);

      const expiring = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ confirm: true, referenceId: `e-${randomUUID()}`, pix: { expiresInSeconds: 60 } }) });
      const start = t.clock.now();
      t.clock.set(new Date(start.getTime() + 61_000));
      await runWorker(t);
      t.clock.set(start);
      const expired = await getTransaction(expiring.json().transaction.id);
      assert.deepEqual([expired.status, expired.feeCents, expired.netAmountCents], ['CANCELED', 0, 0]);
      const canceledEvent = (await eventsOf(expired.id)).find((e) => e.type === 'transaction.canceled')!;
      assert.equal(canceledEvent.data.transaction.feeCents, 0);
    });
  });
}
