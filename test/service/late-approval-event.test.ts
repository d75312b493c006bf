/**
 * A card approval that reaches the acquirer after its intent was recorded
 * FAILED is reversed there, and the seller is told: a
 * `payment_intent.reversed` event on the event log, delivered to a webhook
 * that selected it, and a log line naming the intent and never the card.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { SimulatedProvider } from '../../src/modules/providers/index.js';
import { IDEMPOTENCY_LEASE_MS } from '../../src/modules/idempotency/index.js';
import type { SendResult, Sender } from '../../src/modules/webhooks/sender.js';
import { startTestApp, tokenizeCard, type TestApp } from '../helpers/app.js';
import { DyingProvider } from '../helpers/provider.js';
import { cardIntent } from '../helpers/fixtures.js';
import { engines } from '../helpers/db.js';

type Json = Record<string, any>;

const CARD = '4111111111111111';

class Receiver implements Sender {
  readonly calls: { type: string; body: string }[] = [];
  async send(_url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    this.calls.push({ type: headers['x-svc-event']!, body });
    return { statusCode: 200 };
  }
}

for (const engine of engines()) {
  describe(`a late card approval reversed is an event and a log line (${engine})`, () => {
    let t: TestApp;
    let acquirer: DyingProvider;
    let simulated: SimulatedProvider;
    const receiver = new Receiver();
    const logLines: string[] = [];
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _encoding, done) => (logLines.push(String(chunk)), done()) }));

    before(async () => {
      t = await startTestApp(engine, {
        sender: receiver,
        logger,
        provider: (base) => (acquirer = new DyingProvider((simulated = new SimulatedProvider(base.db, base.clock)))),
      });
    });
    after(() => t.close());

    test('the worker reverses an approval that landed after FAILED: payment_intent.reversed listed, delivered, logged', async () => {
      const hook = await t.call({ method: 'POST', url: '/v2/webhooks', payload: { url: 'https://seller.example/hooks', events: ['payment_intent.reversed'] } });
      assert.equal(hook.statusCode, 201, hook.body);
      const created = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: cardIntent({ referenceId: `rev-${randomUUID()}` }) });
      assert.equal(created.statusCode, 201, created.body);
      const intent: Json = created.json();
      const { token } = await tokenizeCard(t, intent.cardTokenization);
      const reached = acquirer.dieOnNextCharge('before-charge');
      void t.call({ method: 'POST', url: `/v2/payment-intents/${intent.id}/confirm`, headers: { 'idempotency-key': 'k-rev' }, payload: { token } });
      await reached;
      t.clock.advance(IDEMPOTENCY_LEASE_MS + 1);
      await t.services.intents.recoverStuckConfirmations();
      // The authorization that was in flight reaches the acquirer and is approved; the worker reverses it.
      await simulated.authorizeCard({
        reference: intent.id,
        amountCents: intent.amountCents,
        installments: 1,
        card: { number: CARD, cvv: '123', expMonth: 12, expYear: 2030, holderName: 'X', brand: 'VISA', last4: '1111' },
      });
      await t.services.intents.recoverStuckConfirmations();

      const listed = await t.call({ method: 'GET', url: '/v2/events?type=payment_intent.reversed' });
      assert.equal(listed.statusCode, 200, listed.body);
      const events: Json[] = listed.json().data.filter((e: Json) => e.data.paymentIntent.id === intent.id);
      assert.equal(events.length, 1, 'one event for the reversal');
      const [event] = events as [Json];
      assert.equal(event.type, 'payment_intent.reversed');
      assert.equal(event.data.paymentIntent.status, 'FAILED');
      assert.equal(event.data.paymentIntent.amountCents, intent.amountCents);
      assert.equal(event.data.reversal.amountCents, intent.amountCents);
      assert.ok(Date.parse(event.data.reversal.reversedAt));
      assert.equal(event.data.transaction, undefined, 'no transaction exists');
      const single = await t.call({ method: 'GET', url: `/v2/events/${event.id}` });
      assert.equal(single.statusCode, 200, single.body);

      // Settling again (the worker's next pass) writes no second event.
      await t.services.intents.recoverStuckConfirmations();
      const again = (await t.call({ method: 'GET', url: '/v2/events?type=payment_intent.reversed' })).json().data.filter((e: Json) => e.data.paymentIntent.id === intent.id);
      assert.equal(again.length, 1);

      await t.services.deliveries.runOnce();
      const delivered = receiver.calls.filter((c) => c.type === 'payment_intent.reversed' && JSON.parse(c.body).id === event.id);
      assert.equal(delivered.length, 1, 'delivered to the webhook that selected it');

      const lines = logLines.filter((line) => line.includes('late card approval reversed'));
      assert.equal(lines.length, 1);
      assert.equal(JSON.parse(lines[0]!).intentId, intent.id);
      assert.ok(!lines[0]!.includes(CARD) && !lines[0]!.includes('1111'), 'no card data in the log line');
    });
  });
}
