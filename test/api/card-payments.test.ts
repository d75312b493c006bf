/**
 * Card payments end to end through the API and the in-process vault: the card
 * intent and its tokenization data, installments, every sandbox test card
 * (approved, refused, acquirer silent), the token rules on confirm (required,
 * malformed, single use, bound to its intent), idempotent replay, fees and
 * receivables per installment. The recovery of a confirmation whose process
 * died between its phases is in test/service/confirmation.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { saoPauloDate } from '../../src/lib/sao-paulo-date.js';
import { TEST_CARDS, hashToken, verifyTicket } from '../../src/modules/vault/index.js';
import { startTestApp, tokenizeCard, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/db.js';
import { assertError } from '../helpers/assert.js';
import { cardIntent } from '../helpers/fixtures.js';

type Json = Record<string, any>;

interface Receivable {
  recipientDocument: string;
  role: string;
  installment: number;
  grossAmountCents: number;
  feeCents: number;
  amountCents: number;
  expectedOn: string;
  status: string;
}

interface TransactionBody {
  id: string;
  status: string;
  paymentMethod: string;
  installments: number;
  amountCents: number;
  feeCents: number;
  netAmountCents: number;
  paymentIntentId: string;
  paymentDetails: Json;
  split: { receivables: Receivable[] };
}

for (const engine of engines()) {
  describe(`card payments (${engine})`, () => {
    let t: TestApp;

    before(async () => {
      t = await startTestApp(engine);
    });
    after(() => t.close());

    const create = (body: Json, key?: string) =>
      t.call({ method: 'POST', url: '/v2/payment-intents', payload: body, headers: key ? { 'idempotency-key': key } : {} });
    const newCardIntent = async (overrides: Json = {}): Promise<Json> => {
      const res = await create(cardIntent({ referenceId: `card-${randomUUID()}`, ...overrides }));
      assert.equal(res.statusCode, 201, res.body);
      return res.json();
    };
    const confirm = (id: string, key: string, payload?: unknown) =>
      t.call({
        method: 'POST',
        url: `/v2/payment-intents/${id}/confirm`,
        headers: { 'idempotency-key': key, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
      });
    const getIntent = async (id: string): Promise<Json> => {
      const res = await t.call({ method: 'GET', url: `/v2/payment-intents/${id}` });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const tokenize = (intent: Json, number?: string): Promise<Json> => tokenizeCard(t, intent.cardTokenization, number);
    const transactionsOf = (intentId: string) => t.db.db.selectFrom('transactions').selectAll().where('payment_intent_id', '=', intentId).execute();
    const chargesOf = (intentId: string) => t.db.db.selectFrom('acquirer_charges').selectAll().where('reference', '=', intentId).execute();
    const eventTypes = async (transactionId: string) =>
      (await t.db.db.selectFrom('events').select(['id', 'type']).where('transaction_id', '=', transactionId).orderBy('id').execute()).map((e) => e.type);
    const receivableRows = (transactionId: string) => t.db.db.selectFrom('receivables').selectAll().where('transaction_id', '=', transactionId).execute();

    test('a card intent is 201 REQUIRES_TOKEN with cardTokenization {vaultUrl, ticket, encryptionKey = the current /keys key}', async () => {
      const intent = await newCardIntent();
      assert.equal(intent.status, 'REQUIRES_TOKEN');
      assert.equal(intent.paymentMethod, 'CREDIT_CARD');
      assert.equal(intent.installments, 1, 'default 1 installment');
      assert.equal(intent.transactionId, undefined);
      assert.deepEqual(Object.keys(intent.cardTokenization).sort(), ['encryptionKey', 'ticket', 'vaultUrl']);
      assert.equal(intent.cardTokenization.vaultUrl, t.deps.config.publicVaultUrl);
      const keys = (await t.vaultApp.inject({ method: 'GET', url: '/keys' })).json<{ keys: { current: boolean; jwk: Json }[] }>().keys;
      assert.equal(keys[0]!.current, true);
      assert.deepEqual(intent.cardTokenization.encryptionKey, keys[0]!.jwk);
      // The ticket names this intent and company and expires with it.
      const check = verifyTicket(t.deps.internalKey, intent.cardTokenization.ticket, t.clock.now());
      assert.ok(check.ok);
      assert.equal(check.claims.intentId, intent.id);
      assert.equal(check.claims.companyId, t.companyId);
      assert.equal(check.claims.expiresAt.getTime(), Math.floor(Date.parse(intent.expiresAt) / 1000) * 1000);
      // GET answers the same key and a working ticket while the intent waits for its token.
      const fetched = await getIntent(intent.id);
      assert.equal(fetched.status, 'REQUIRES_TOKEN');
      assert.deepEqual(fetched.cardTokenization.encryptionKey, keys[0]!.jwk);
      assert.ok(verifyTicket(t.deps.internalKey, fetched.cardTokenization.ticket, t.clock.now()).ok);
    });

    test('installments 1 to 12 are accepted; 0 and 13 are 400 naming installments', async () => {
      for (let n = 1; n <= 12; n++) {
        const intent = await newCardIntent({ installments: n });
        assert.equal(intent.installments, n);
      }
      for (const n of [0, 13, 1.5]) {
        assertError(await create(cardIntent({ installments: n })), 400, 'VALIDATION_ERROR', 'installments', { exactly: true });
      }
    });

    test('confirm: true at creation is 400 naming confirm, and creates nothing', async () => {
      const referenceId = `card-confirm-${randomUUID()}`;
      assertError(await create(cardIntent({ confirm: true, referenceId })), 400, 'VALIDATION_ERROR', 'confirm', { exactly: true });
      assert.equal((await t.db.db.selectFrom('payment_intents').select('id').where('reference_id', '=', referenceId).execute()).length, 0);
    });

    test('card fee: 3.49 % for 1 installment, 3.99 % for 2–6, 4.49 % for 7–12, half-up; receivables per installment at D+30·n', async () => {
      // The manual clock still stands at its start: paid on Saturday 2026-11-21 (São Paulo).
      assert.equal(saoPauloDate(t.clock.now()), '2026-11-21');
      // D+30·n, moved to the next business day (03-21 and 10-17 are Sundays, 06-19 a Saturday).
      const expected = ['2026-12-21', '2027-01-20', '2027-02-19', '2027-03-22', '2027-04-20', '2027-05-20', '2027-06-21', '2027-07-19', '2027-08-18', '2027-09-17', '2027-10-18', '2027-11-16'];
      // 15 000 × rate is exactly x.5 centavos for all three rates: half-up rounds it up.
      const amount = 15_000;
      const feeFor = (n: number) => (n === 1 ? 524 : n <= 6 ? 599 : 674); // 523.5, 598.5, 673.5
      for (let n = 1; n <= 12; n++) {
        const intent = await newCardIntent({ amountCents: amount, installments: n });
        const { token } = await tokenize(intent);
        const res = await confirm(intent.id, randomUUID(), { token });
        assert.equal(res.statusCode, 201, res.body);
        const trx = res.json<TransactionBody>();
        assert.equal(trx.status, 'PAID', `${n}x`);
        assert.equal(trx.installments, n);
        assert.equal(trx.feeCents, feeFor(n), `${n}x fee`);
        assert.equal(trx.netAmountCents, amount - feeFor(n));
        const lines = trx.split.receivables;
        assert.equal(lines.length, n, `${n}x: one receivable per installment`);
        assert.deepEqual(lines.map((l) => l.installment), Array.from({ length: n }, (_, i) => i + 1));
        assert.deepEqual(lines.map((l) => l.expectedOn), expected.slice(0, n), `${n}x dates`);
        for (const line of lines) {
          assert.equal(line.role, 'SELLER');
          assert.equal(line.recipientDocument, t.companyDocument);
          assert.equal(line.status, 'PENDING');
          assert.equal(line.amountCents, line.grossAmountCents - line.feeCents);
        }
        // Equal parts, the remainder centavos on installment 1.
        const grossPart = Math.floor(amount / n);
        const feePart = Math.floor(feeFor(n) / n);
        assert.deepEqual(lines.map((l) => l.grossAmountCents), lines.map((_, i) => (i === 0 ? amount - grossPart * (n - 1) : grossPart)));
        assert.deepEqual(lines.map((l) => l.feeCents), lines.map((_, i) => (i === 0 ? feeFor(n) - feePart * (n - 1) : feePart)));
        assert.equal(lines.reduce((s, l) => s + l.grossAmountCents, 0), amount);
        assert.equal(lines.reduce((s, l) => s + l.feeCents, 0), trx.feeCents);
        assert.equal(lines.reduce((s, l) => s + l.amountCents, 0), trx.netAmountCents);
        assert.equal((await receivableRows(trx.id)).length, n);
      }
    });

    for (const card of TEST_CARDS) {
      test(`test card ${card.number} (${card.note}): ${card.outcome}`, async () => {
        const intent = await newCardIntent({ amountCents: 10_000 });
        const tokenized = await tokenize(intent, card.number);
        assert.equal(tokenized.brand, card.brand);
        assert.equal(tokenized.last4, card.number.slice(-4));
        const key = randomUUID();
        const res = await confirm(intent.id, key, { token: tokenized.token });

        if (card.outcome === 'silent') {
          assertError(res, 502, 'PROVIDER_ERROR');
          const after = await getIntent(intent.id);
          assert.equal(after.status, 'FAILED');
          assert.equal(after.transactionId, undefined);
          assert.equal((await transactionsOf(intent.id)).length, 0, 'no transaction');
          assert.equal((await chargesOf(intent.id)).length, 0, 'the acquirer recorded nothing');
          // Stored like any outcome: the same key replays the 502, another key finds the intent FAILED.
          const replay = await confirm(intent.id, key, { token: tokenized.token });
          assert.equal(replay.statusCode, 502);
          assert.equal(replay.body, res.body);
          assertError(await confirm(intent.id, randomUUID(), { token: tokenized.token }), 409, 'INTENT_ALREADY_PROCESSED');
          return;
        }

        assert.equal(res.statusCode, 201, res.body);
        const trx = res.json<TransactionBody>();
        assert.equal(trx.paymentMethod, 'CREDIT_CARD');
        assert.equal(trx.paymentIntentId, intent.id);
        assert.ok(!res.body.includes(card.number), 'the number never reaches the API response');
        const after = await getIntent(intent.id);
        assert.equal(after.status, 'CONFIRMED');
        assert.equal(after.transactionId, trx.id);
        assert.equal(after.cardTokenization, undefined);
        assert.equal((await chargesOf(intent.id)).length, 1);

        if (card.outcome === 'approved') {
          assert.equal(trx.status, 'PAID');
          assert.deepEqual(trx.paymentDetails, { card: { brand: card.brand, last4: card.number.slice(-4) } });
          assert.ok(trx.split.receivables.length > 0, 'receivables present');
          assert.equal(trx.split.receivables.reduce((s, l) => s + l.grossAmountCents, 0), trx.amountCents);
          assert.deepEqual(await eventTypes(trx.id), ['transaction.created', 'transaction.paid']);
        } else {
          assert.equal(trx.status, 'FAILED');
          const { card: details } = trx.paymentDetails as { card: Json };
          assert.deepEqual(Object.keys(details).sort(), ['brand', 'last4', 'refusalCode', 'refusalMessage']);
          assert.equal(details.brand, card.brand);
          assert.equal(details.last4, card.number.slice(-4));
          assert.equal(details.refusalCode, card.outcome);
          assert.equal(typeof details.refusalMessage, 'string');
          assert.ok((details.refusalMessage as string).length > 0);
          assert.deepEqual(trx.split.receivables, []);
          assert.equal((await receivableRows(trx.id)).length, 0, 'no receivables');
          assert.deepEqual(await eventTypes(trx.id), ['transaction.created', 'transaction.canceled']);
        }
        const fetched = await t.call({ method: 'GET', url: `/v2/transactions/${trx.id}` });
        assert.equal(fetched.statusCode, 200);
        assert.deepEqual(fetched.json(), trx);
      });
    }

    test('confirm without a token is 400 TOKEN_REQUIRED naming token (no body, {} or null), and the intent waits', async () => {
      const intent = await newCardIntent();
      assertError(await confirm(intent.id, randomUUID()), 400, 'TOKEN_REQUIRED', 'token', { exactly: true });
      assertError(await confirm(intent.id, randomUUID(), {}), 400, 'TOKEN_REQUIRED', 'token', { exactly: true });
      assertError(await confirm(intent.id, randomUUID(), 'null'), 400, 'TOKEN_REQUIRED', 'token', { exactly: true });
      assert.equal((await getIntent(intent.id)).status, 'REQUIRES_TOKEN');
      const { token } = await tokenize(intent);
      assert.equal((await confirm(intent.id, randomUUID(), { token })).statusCode, 201);
    });

    test('a malformed token is 400 VALIDATION_ERROR naming token: without vtk_, over 4100 characters, not a string', async () => {
      const intent = await newCardIntent();
      assertError(await confirm(intent.id, randomUUID(), { token: 'tok_abc' }), 400, 'VALIDATION_ERROR', 'token', { exactly: true });
      assertError(await confirm(intent.id, randomUUID(), { token: `vtk_${'a'.repeat(4097)}` }), 400, 'VALIDATION_ERROR', 'token', { exactly: true });
      assertError(await confirm(intent.id, randomUUID(), { token: 42 }), 400, 'VALIDATION_ERROR', 'token', { exactly: true });
      assertError(await confirm(intent.id, randomUUID(), { token: 'vtk_x', extra: true }), 400, 'VALIDATION_ERROR', 'extra', { exactly: true });
      // 4100 characters passes the schema; a token the vault does not know is refused by the vault.
      assertError(await confirm(intent.id, randomUUID(), { token: `vtk_${'a'.repeat(4096)}` }), 400, 'VALIDATION_ERROR', 'token', { exactly: true });
      assert.equal((await getIntent(intent.id)).status, 'REQUIRES_TOKEN');
      assert.equal((await chargesOf(intent.id)).length, 0);
    });

    test('a token works once: a second confirm with another key is 409 INTENT_ALREADY_PROCESSED', async () => {
      const intent = await newCardIntent();
      const { token } = await tokenize(intent);
      const first = await confirm(intent.id, randomUUID(), { token });
      assert.equal(first.statusCode, 201, first.body);
      assertError(await confirm(intent.id, randomUUID(), { token }), 409, 'INTENT_ALREADY_PROCESSED');
      assert.equal((await transactionsOf(intent.id)).length, 1);
      assert.equal((await chargesOf(intent.id)).length, 1);
      const row = await t.db.db.selectFrom('vault.tokens').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();
      assert.ok(row.used_at);
    });

    test("intent A's token does not confirm intent B: 400 naming token, B still waits and takes its own token", async () => {
      const a = await newCardIntent();
      const b = await newCardIntent();
      const tokenA = (await tokenize(a)).token as string;
      const tokenB = (await tokenize(b, '5555555555554444')).token as string;
      const key = randomUUID();
      assertError(await confirm(b.id, key, { token: tokenA }), 400, 'VALIDATION_ERROR', 'token', { exactly: true });
      const waiting = await getIntent(b.id);
      assert.equal(waiting.status, 'REQUIRES_TOKEN');
      assert.ok(waiting.cardTokenization);
      assert.equal((await transactionsOf(b.id)).length, 0);
      assert.equal((await chargesOf(b.id)).length + (await chargesOf(a.id)).length, 0, 'nothing was charged');
      // The refused request acted on nothing, so its key is free for the corrected request.
      const ok = await confirm(b.id, key, { token: tokenB });
      assert.equal(ok.statusCode, 201, ok.body);
      assert.deepEqual(ok.json<TransactionBody>().paymentDetails, { card: { brand: 'mastercard', last4: '4444' } });
      // A's token was not spent by the refused attempt: it still confirms A.
      const okA = await confirm(a.id, randomUUID(), { token: tokenA });
      assert.equal(okA.statusCode, 201, okA.body);
      assert.equal(okA.json<TransactionBody>().paymentIntentId, a.id);
      // And once spent, B's token refuses intent A's twin as well.
      const c = await newCardIntent();
      assertError(await confirm(c.id, randomUUID(), { token: tokenB }), 400, 'VALIDATION_ERROR', 'token', { exactly: true });
    });

    test('a replay with the same Idempotency-Key answers the same bytes and charges once', async () => {
      const intent = await newCardIntent({ amountCents: 12_345, installments: 3 });
      const { token } = await tokenize(intent);
      const key = randomUUID();
      const first = await confirm(intent.id, key, { token });
      assert.equal(first.statusCode, 201, first.body);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      for (let i = 0; i < 2; i++) {
        const replay = await confirm(intent.id, key, { token });
        assert.equal(replay.statusCode, 201);
        assert.equal(replay.body, first.body, 'byte-identical');
        assert.equal(replay.headers['idempotent-replayed'], 'true');
      }
      assert.equal((await chargesOf(intent.id)).length, 1, 'one acquirer record');
      assert.equal((await transactionsOf(intent.id)).length, 1);
      assertError(await confirm(intent.id, key, { token: `${token}x` }), 422, 'IDEMPOTENCY_KEY_REUSED', 'Idempotency-Key', { exactly: true });
    });
  });
}
