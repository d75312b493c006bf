/**
 * Card data is kept only while it is needed (issue 26), on a real database:
 * a token's card and CVV are erased in the commit that spends it, before the
 * acquirer is called, whatever the outcome (approved, refused, a late
 * approval reversed), with the card of the intent's other tokens; an intent
 * that fails before any authorization loses its cards at once; the vault's
 * sweep erases the cards of tokens never spent once their intent expired or
 * was canceled, and the cards earlier versions left on spent tokens, keeping
 * their fingerprint. What stays: brand, last 4 digits, expiry, fingerprint.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { SimulatedProvider } from '../../src/modules/providers/index.js';
import { hashToken, internalBearer } from '../../src/modules/vault/index.js';
import { startTestApp, tokenizeCard, type TestApp } from '../helpers/app.js';
import { DyingProvider } from '../helpers/provider.js';
import { cardIntent } from '../helpers/fixtures.js';
import { engines } from '../helpers/db.js';

type Json = Record<string, any>;

// The service's deadline (payment-intents/confirmation.ts), restated so the test checks behaviour.
const AUTHORIZE_DEADLINE_MS = 10_000;

for (const engine of engines()) {
  describe(`card data kept only while needed (${engine})`, () => {
    let t: TestApp;
    let acquirer: DyingProvider;

    before(async () => {
      t = await startTestApp(engine, { provider: (base) => (acquirer = new DyingProvider(new SimulatedProvider(base.db, base.clock))) });
    });
    after(() => t.close());

    const newCardIntent = async (): Promise<Json> => {
      const res = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: cardIntent({ referenceId: `keep-${randomUUID()}` }) });
      assert.equal(res.statusCode, 201, res.body);
      return res.json();
    };
    const tokenize = async (intent: Json, number?: string): Promise<string> => (await tokenizeCard(t, intent.cardTokenization, number)).token;
    const confirm = (id: string, token: string) =>
      t.call({ method: 'POST', url: `/v2/payment-intents/${id}/confirm`, headers: { 'idempotency-key': randomUUID() }, payload: { token } });
    const tokenRow = (token: string) => t.db.db.selectFrom('vault.tokens').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();
    /** The fingerprint the per-card velocity limit counted for this intent's card (one card per intent here). */
    const countedFingerprint = async (intentId: string) =>
      (await t.db.db.selectFrom('vault.card_intents').select('fingerprint').where('intent_id', '=', intentId).executeTakeFirstOrThrow()).fingerprint;
    const sweep = () => t.vault.sweeper.sweep(t.clock.now());
    const holdsCard = (row: { card_sealed: string | null; cvv_sealed: string | null }) => row.card_sealed !== null || row.cvv_sealed !== null;

    /** What a spent token keeps: brand, last 4, expiry and the card's keyed fingerprint; no card, no CVV. */
    const assertKeepsOnlyWhatIsNeeded = async (token: string, intentId: string, brand: string, last4: string) => {
      const row = await tokenRow(token);
      assert.equal(row.card_sealed, null, 'the card is erased');
      assert.equal(row.cvv_sealed, null, 'the CVV is erased');
      assert.deepEqual([row.brand, row.last4, row.exp_month, row.exp_year], [brand, last4, 12, 2030]);
      assert.match(row.fingerprint ?? '', /^[0-9a-f]{64}$/);
      assert.equal(row.fingerprint, await countedFingerprint(intentId), 'the fingerprint is the keyed one the velocity limit counts');
    };

    test('approved: the card is gone from the database when the acquirer is called, PAID afterwards', async () => {
      const intent = await newCardIntent();
      const token = await tokenize(intent);
      assert.ok((await tokenRow(token)).card_sealed, 'held until the token is spent');
      const held = acquirer.holdNextCharge();
      const answer = confirm(intent.id, token);
      await held.reached;
      const during = await tokenRow(token);
      assert.ok(during.used_at, 'spent');
      assert.equal(holdsCard(during), false, 'erased in the commit that spent the token, before the acquirer answered');
      held.release();
      const res = await answer;
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().status, 'PAID');
      await assertKeepsOnlyWhatIsNeeded(token, intent.id, 'visa', '1111');
    });

    test('refused: the card is erased, the transaction FAILED', async () => {
      const intent = await newCardIntent();
      const token = await tokenize(intent, '4111113111110002');
      const res = await confirm(intent.id, token);
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().status, 'FAILED');
      await assertKeepsOnlyWhatIsNeeded(token, intent.id, 'visa', '0002');
    });

    test('an approval answered after the deadline is reversed: the card is erased', async () => {
      const intent = await newCardIntent();
      const token = await tokenize(intent);
      const held = acquirer.holdNextCharge();
      const answer = confirm(intent.id, token);
      await held.reached;
      t.clock.advance(AUTHORIZE_DEADLINE_MS + 1);
      held.release();
      assert.equal((await answer).statusCode, 502);
      const charge = await t.db.db.selectFrom('acquirer_charges').select('reversed_at').where('reference', '=', intent.id).executeTakeFirstOrThrow();
      assert.ok(charge.reversed_at, 'reversed at the acquirer');
      await assertKeepsOnlyWhatIsNeeded(token, intent.id, 'visa', '1111');
    });

    test("the intent's other tokens lose their card in the commit that spends one", async () => {
      const intent = await newCardIntent();
      const spentToken = await tokenize(intent);
      const other = await tokenize(intent, '5555555555554444');
      const held = acquirer.holdNextCharge();
      const answer = confirm(intent.id, spentToken);
      await held.reached;
      const row = await tokenRow(other);
      assert.equal(row.used_at, null, 'never spent');
      assert.equal(holdsCard(row), false, 'its card went with the spending commit');
      assert.deepEqual([row.brand, row.last4], ['mastercard', '4444']);
      held.release();
      assert.equal((await answer).statusCode, 201);
    });

    test('no authorization started before the deadline: the answer is "not charged" and the intent\'s cards are erased', async () => {
      const intent = await newCardIntent();
      const token = await tokenize(intent);
      const res = await t.vaultApp.inject({
        method: 'POST',
        url: '/internal/authorize',
        headers: { authorization: `Bearer ${internalBearer(t.deps.internalKey)}` },
        payload: { token, intentId: intent.id, companyId: t.companyId, amountCents: intent.amountCents, installments: 1, deadline: t.clock.now().getTime() },
      });
      assert.equal(res.json().notCharged, true, res.body);
      const row = await tokenRow(token);
      assert.equal(row.used_at, null);
      assert.equal(holdsCard(row), false);
    });

    test("the sweep keeps a token's card while its intent may still be paid, and erases it once the intent is canceled", async () => {
      const intent = await newCardIntent();
      const token = await tokenize(intent);
      await sweep();
      assert.ok(holdsCard(await tokenRow(token)), 'kept while the intent waits for its confirmation');
      // A confirmation claimed, the vault not yet called: the token is about to be spent.
      await t.db.db.updateTable('payment_intents').set({ confirm_started_at: t.clock.now() }).where('id', '=', intent.id).execute();
      await sweep();
      assert.ok(holdsCard(await tokenRow(token)), 'kept while the intent is being confirmed');
      await t.db.db.updateTable('payment_intents').set({ confirm_started_at: null }).where('id', '=', intent.id).execute();

      const canceled = await t.call({ method: 'POST', url: `/v2/payment-intents/${intent.id}/cancel` });
      assert.equal(canceled.statusCode, 200, canceled.body);
      assert.ok(holdsCard(await tokenRow(token)), 'until the sweep runs');
      assert.equal(await sweep(), 1);
      const row = await tokenRow(token);
      assert.equal(holdsCard(row), false);
      assert.equal(row.fingerprint, await countedFingerprint(intent.id));
    });

    test('the sweep erases the cards earlier versions left on spent tokens, filling in their fingerprint first', async () => {
      const intent = await newCardIntent();
      const token = await tokenize(intent);
      const stored = await tokenRow(token);
      assert.equal((await confirm(intent.id, token)).statusCode, 201);
      // As a version before migration 014 left it: spent, the card kept, no fingerprint.
      await t.db.db.updateTable('vault.tokens').set({ card_sealed: stored.card_sealed, fingerprint: null }).where('id', '=', stored.id).execute();
      assert.equal(await sweep(), 1);
      const row = await tokenRow(token);
      assert.equal(row.card_sealed, null);
      assert.equal(row.fingerprint, await countedFingerprint(intent.id), 'computed from the card before it was erased');
      assert.equal(await sweep(), 0, 'nothing left');
    });
  });
}
