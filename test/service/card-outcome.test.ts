/**
 * An unknown card outcome is resolved, never guessed (issue 9, defect 2), and
 * no CVV outlives the outcome (defect 8), on a real database: the vault
 * starts no authorization after the API's deadline, an approval answered
 * after it is reversed at the acquirer, and the worker resolves a FAILED
 * intent of unknown outcome from the acquirer's record.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { SimulatedProvider } from '../../src/modules/providers/index.js';
import { IDEMPOTENCY_LEASE_MS } from '../../src/modules/idempotency/index.js';
import { hashToken, internalBearer } from '../../src/modules/vault/index.js';
import { startTestApp, tokenizeCard, type TestApp } from '../helpers/app.js';
import { DyingProvider } from '../helpers/provider.js';
import { assertError } from '../helpers/assert.js';
import { cardIntent } from '../helpers/fixtures.js';
import { engines } from '../helpers/db.js';

type Json = Record<string, any>;

// The service's figures (confirmation.ts), restated so that these tests check behaviour even against code without them.
const AUTHORIZE_DEADLINE_MS = 10_000;
const UNKNOWN_OUTCOME_WINDOW_MS = 10 * 60_000;

test('the figures restated here are the service\'s', async () => {
  const confirmation: Json = await import('../../src/modules/payment-intents/confirmation.js');
  assert.equal(confirmation.AUTHORIZE_DEADLINE_MS, AUTHORIZE_DEADLINE_MS);
  assert.equal(confirmation.UNKNOWN_OUTCOME_WINDOW_MS, UNKNOWN_OUTCOME_WINDOW_MS);
});

for (const engine of engines()) {
  describe(`card outcomes are resolved, never guessed (${engine})`, () => {
    let t: TestApp;
    let acquirer: DyingProvider;
    let simulated: SimulatedProvider;

    before(async () => {
      t = await startTestApp(engine, { provider: (base) => (acquirer = new DyingProvider((simulated = new SimulatedProvider(base.db, base.clock)))) });
    });
    after(() => t.close());

    const newCardIntent = async (): Promise<Json> => {
      const res = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: cardIntent({ referenceId: `out-${randomUUID()}` }) });
      assert.equal(res.statusCode, 201, res.body);
      return res.json();
    };
    const tokenize = async (intent: Json): Promise<string> => (await tokenizeCard(t, intent.cardTokenization)).token;
    const confirm = (id: string, key: string, token: string) =>
      t.call({ method: 'POST', url: `/v2/payment-intents/${id}/confirm`, headers: { 'idempotency-key': key }, payload: { token } });
    const intentRow = (id: string) => t.db.db.selectFrom('payment_intents').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const chargeOf = (id: string) => t.db.db.selectFrom('acquirer_charges').selectAll().where('reference', '=', id).executeTakeFirst();
    const transactionsOf = (id: string) => t.db.db.selectFrom('transactions').selectAll().where('payment_intent_id', '=', id).execute();
    const tokenRow = (token: string) => t.db.db.selectFrom('vault.tokens').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();
    const authorizeDirectly = (intent: Json, token: string, deadline: number) =>
      t.vaultApp.inject({
        method: 'POST',
        url: '/internal/authorize',
        headers: { authorization: `Bearer ${internalBearer(t.deps.internalKey)}` },
        payload: { token, intentId: intent.id, companyId: t.companyId, amountCents: intent.amountCents, installments: 1, deadline },
      });

    test('POST /internal/authorize after the deadline starts nothing: a definite "not charged", the token unspent', async () => {
      const intent = await newCardIntent();
      const token = await tokenize(intent);
      const calls = acquirer.calls;
      const res = await authorizeDirectly(intent, token, t.clock.now().getTime());
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().notCharged, true);
      assert.equal(acquirer.calls, calls, 'the acquirer was not called');
      assert.equal(await chargeOf(intent.id), undefined);
      assert.equal((await tokenRow(token)).used_at, null, 'nothing was spent');
    });

    test('an approval answered after the deadline is reversed: the intent is FAILED, the reversal is on the acquirer record, no CVV', async () => {
      const intent = await newCardIntent();
      const token = await tokenize(intent);
      const held = acquirer.holdNextCharge();
      const answer = confirm(intent.id, 'k-late', token);
      await held.reached;
      t.clock.advance(AUTHORIZE_DEADLINE_MS + 1);
      held.release();
      assertError(await answer, 502, 'PROVIDER_ERROR');
      const row = await intentRow(intent.id);
      assert.equal(row.status, 'FAILED');
      assert.equal(row.outcome_unknown_since, null, 'the vault said "not charged": nothing left to resolve');
      const charge = await chargeOf(intent.id);
      assert.ok(charge && (charge.outcome as Json).approved === true, 'the acquirer approved');
      assert.ok(charge.reversed_at, 'and the approval was reversed (desfazimento)');
      assert.equal((await transactionsOf(intent.id)).length, 0);
      assert.equal((await tokenRow(token)).cvv_sealed, null);
    });

    test('an approval answered before the deadline stands: PAID', async () => {
      const intent = await newCardIntent();
      const token = await tokenize(intent);
      const held = acquirer.holdNextCharge();
      const answer = confirm(intent.id, 'k-in-time', token);
      await held.reached;
      t.clock.advance(AUTHORIZE_DEADLINE_MS - 1);
      held.release();
      const res = await answer;
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().status, 'PAID');
      assert.equal((await chargeOf(intent.id))!.reversed_at, null);
    });

    test('recovery does not guess: no record is FAILED as unknown; an approval landing later is reversed from the acquirer record', async () => {
      const intent = await newCardIntent();
      const token = await tokenize(intent);
      const reached = acquirer.dieOnNextCharge('before-charge');
      void confirm(intent.id, 'k-in-flight', token);
      await reached;
      assert.equal((await tokenRow(token)).cvv_sealed, null, 'the CVV went with the commit that spent the token');
      t.clock.advance(IDEMPOTENCY_LEASE_MS + 1);
      await t.services.intents.recoverStuckConfirmations();
      let row = await intentRow(intent.id);
      assert.equal(row.status, 'FAILED');
      assert.ok(row.outcome_unknown_since, 'no record yet: the outcome is unknown, not "never charged"');
      // The authorization that was in flight reaches the acquirer and is approved.
      await simulated.authorizeCard({
        reference: intent.id,
        amountCents: intent.amountCents,
        installments: 1,
        card: { number: '4111111111111111', cvv: '123', expMonth: 12, expYear: 2030, holderName: 'X', brand: 'VISA', last4: '1111' },
      });
      await t.services.intents.recoverStuckConfirmations();
      row = await intentRow(intent.id);
      assert.equal(row.status, 'FAILED');
      assert.equal(row.outcome_unknown_since, null, 'resolved');
      assert.ok((await chargeOf(intent.id))!.reversed_at, 'the late approval was reversed');
      assert.equal((await transactionsOf(intent.id)).length, 0);
    });

    test('recovery finishes from an approval on the record (PAID), and an unknown outcome with no record settles after the window', async () => {
      const paid = await newCardIntent();
      const paidToken = await tokenize(paid);
      const reachedPaid = acquirer.dieOnNextCharge('after-charge');
      void confirm(paid.id, 'k-rec-paid', paidToken);
      await reachedPaid;
      const lost = await newCardIntent();
      const lostToken = await tokenize(lost);
      const reachedLost = acquirer.dieOnNextCharge('before-charge');
      void confirm(lost.id, 'k-rec-lost', lostToken);
      await reachedLost;
      t.clock.advance(IDEMPOTENCY_LEASE_MS + 1);
      await t.services.intents.recoverStuckConfirmations();
      assert.equal((await intentRow(paid.id)).status, 'CONFIRMED');
      assert.equal((await transactionsOf(paid.id))[0]?.status, 'PAID');
      assert.equal((await chargeOf(paid.id))!.reversed_at, null);
      assert.ok((await intentRow(lost.id)).outcome_unknown_since);
      t.clock.advance(UNKNOWN_OUTCOME_WINDOW_MS + 1);
      await t.services.intents.recoverStuckConfirmations();
      assert.equal((await intentRow(lost.id)).outcome_unknown_since, null, 'nothing can land any more: settled FAILED');
      assert.equal(await chargeOf(lost.id), undefined);
    });
  });
}
