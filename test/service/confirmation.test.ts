/**
 * Confirmation and its recovery, on a real database and the real services.
 * A process that dies between the phases of a confirm is reproduced, not
 * written by hand: the acquirer stand-in (DyingProvider) never answers one call, so the
 * request stays where a dead process would leave it (intent claimed, its
 * Idempotency-Key STARTED with a lease, and the acquirer having charged or
 * not). Retries go over HTTP, where the contract is observed (status, code,
 * replayed bytes); the recovery worker and the phase-1 claim are called directly.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { isDomainError } from '../../src/lib/domain-error.js';
import { SimulatedProvider } from '../../src/modules/providers/index.js';
import { IDEMPOTENCY_LEASE_MS, requestFingerprint } from '../../src/modules/idempotency/index.js';
import { INTENT_LIFETIME_MS } from '../../src/modules/payment-intents/index.js';
import { hashToken } from '../../src/modules/vault/index.js';
import { startTestApp, tokenizeCard, type TestApp } from '../helpers/app.js';
import { DyingProvider } from '../helpers/provider.js';
import { assertError } from '../helpers/assert.js';
import { settled } from '../helpers/outcome.js';
import { cardIntent, pixIntent } from '../helpers/fixtures.js';
import { engines } from '../helpers/db.js';

type Json = Record<string, any>;

for (const engine of engines()) {
  describe(`confirmation service (${engine})`, () => {
    let t: TestApp;
    let acquirer: DyingProvider;

    before(async () => {
      t = await startTestApp(engine, { provider: (base) => (acquirer = new DyingProvider(new SimulatedProvider(base.db, base.clock))) });
    });
    after(() => t.close());

    const created = async (body: Json): Promise<Json> => {
      const res = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: body });
      assert.equal(res.statusCode, 201, res.body);
      return res.json();
    };
    const createIntent = (overrides: Json = {}) => created(pixIntent({ referenceId: `svc-${randomUUID()}`, ...overrides }));
    const newCardIntent = (overrides: Json = {}) => created(cardIntent({ referenceId: `svc-${randomUUID()}`, ...overrides }));
    const confirm = (id: string, key: string, payload?: Json) =>
      t.call({
        method: 'POST',
        url: `/v2/payment-intents/${id}/confirm`,
        headers: { 'idempotency-key': key },
        ...(payload === undefined ? {} : { payload }),
      });
    /** A confirm whose process dies at the acquirer: resolves once phase 1 committed and the acquirer was reached. */
    const confirmThatDies = async (id: string, key: string, when: 'before-charge' | 'after-charge', payload?: Json) => {
      const reached = acquirer.dieOnNextCharge(when);
      void confirm(id, key, payload);
      await reached;
    };
    const tokenize = async (intent: Json, number?: string): Promise<string> => (await tokenizeCard(t, intent.cardTokenization, number)).token;
    const intentRow = (id: string) => t.db.db.selectFrom('payment_intents').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const keyRow = (key: string) => t.db.db.selectFrom('idempotency_keys').selectAll().where('key', '=', key).executeTakeFirst();
    const transactionsOf = (id: string) => t.db.db.selectFrom('transactions').selectAll().where('payment_intent_id', '=', id).execute();
    const chargesOf = (id: string) => t.db.db.selectFrom('acquirer_charges').selectAll().where('reference', '=', id).execute();
    const eventTypes = async (transactionId: string) =>
      (await t.db.db.selectFrom('events').select(['id', 'type']).where('transaction_id', '=', transactionId).orderBy('id').execute()).map((e) => e.type);
    const tokenRow = (token: string) => t.db.db.selectFrom('vault.tokens').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();
    /** A scope claimed the way the Idempotency-Key hook claims it, for calling the service directly. */
    const claimKey = async (id: string, key: string, body: unknown = null) => {
      const claim = settled(await t.services.idempotency.claim(t.companyId, key, requestFingerprint('POST', '/v2/payment-intents/:id/confirm', { id }, body), 201));
      assert.ok(claim.kind === 'new');
      return claim.scope;
    };

    describe('phase 1 and its refusals, as values', () => {
      test('a dying confirm leaves the intent claimed under its key and the key STARTED with a lease', async () => {
        const { id } = await createIntent();
        await confirmThatDies(id, 'k-dies', 'before-charge');
        const row = await intentRow(id);
        assert.equal(row.status, 'REQUIRES_CONFIRMATION');
        assert.equal(row.confirm_key, 'k-dies');
        assert.ok(row.confirm_started_at);
        const key = await keyRow('k-dies');
        assert.equal(key?.state, 'STARTED');
        assert.equal(key!.locked_until.getTime(), t.clock.now().getTime() + IDEMPOTENCY_LEASE_MS);
        // A second claim under another key is refused; under the same key it resumes.
        const other = await t.services.intents.claim(t.companyId, id, false, await claimKey(id, 'k-other'));
        assert.ok(isDomainError(other));
        assert.equal(other.code, 'INTENT_ALREADY_PROCESSED');
        const same = await t.services.intents.claim(t.companyId, id, false, { key: 'k-dies', save: async () => {} });
        assert.ok('resume' in settled(same));
        // Nobody retries: past the lease the worker fails it (the acquirer never saw it).
        t.clock.advance(IDEMPOTENCY_LEASE_MS + 1);
        assert.equal(await t.services.intents.recoverStuckConfirmations(), 1);
        assert.equal((await intentRow(id)).status, 'FAILED');
      });

      test('an expired intent answers INTENT_EXPIRED and is persisted EXPIRED in the same commit', async () => {
        const { id } = await createIntent();
        t.clock.advance(INTENT_LIFETIME_MS);
        const outcome = await t.services.intents.confirm(t.companyId, id, undefined, await claimKey(id, 'k-expired'));
        assert.ok(isDomainError(outcome));
        assert.equal(outcome.code, 'INTENT_EXPIRED');
        assert.equal((await intentRow(id)).status, 'EXPIRED');
        const canceled = await t.services.intents.cancel(t.companyId, id);
        assert.ok(isDomainError(canceled));
        assert.equal(canceled.code, 'INTENT_EXPIRED');
      });

      test('a card confirm without a token is TOKEN_REQUIRED and claims nothing', async () => {
        const intent = await newCardIntent();
        const outcome = await t.services.intents.confirm(t.companyId, intent.id, undefined, await claimKey(intent.id, 'k-no-token'));
        assert.ok(isDomainError(outcome));
        assert.equal(outcome.code, 'TOKEN_REQUIRED');
        assert.equal((await intentRow(intent.id)).confirm_started_at, null);
      });

      test('a token the vault refuses charges nothing and releases the claim, so a good token confirms', async () => {
        const first = await newCardIntent();
        const second = await newCardIntent();
        const othersToken = await tokenize(second);
        assertError(await confirm(first.id, 'k-wrong-token', { token: othersToken }), 400, 'VALIDATION_ERROR', 'token', { exactly: true });
        const row = await intentRow(first.id);
        assert.equal(row.confirm_started_at, null, 'claim released');
        assert.equal(row.confirm_key, null);
        assert.equal((await chargesOf(first.id)).length, 0);
        const ok = await confirm(first.id, 'k-right-token', { token: await tokenize(first) });
        assert.equal(ok.statusCode, 201, ok.body);
        assert.equal(ok.json<Json>().status, 'PAID');
      });

      test('a silent acquirer: PROVIDER_ERROR, the intent FAILED, the error stored under the key', async () => {
        const { id } = await createIntent({ amountCents: 50_200 });
        const outcome = await t.services.intents.confirm(t.companyId, id, undefined, await claimKey(id, 'k-silent'));
        assert.ok(isDomainError(outcome));
        assert.equal(outcome.code, 'PROVIDER_ERROR');
        assert.equal((await intentRow(id)).status, 'FAILED');
        assert.equal((await keyRow('k-silent'))?.state, 'DONE');
        const replay = await confirm(id, 'k-silent');
        assertError(replay, 502, 'PROVIDER_ERROR');
        assert.equal(replay.headers['idempotent-replayed'], 'true');
      });
    });

    describe('Pix: the process died after phase 1', () => {
      test('the worker finishes from the acquirer record (charged) or fails the intent (never charged); retries replay', async () => {
        const charged = (await createIntent({ amountCents: 12_345 })).id;
        const silent = (await createIntent({ amountCents: 23_456 })).id;
        await confirmThatDies(charged, 'k-rec-charged', 'after-charge');
        await confirmThatDies(silent, 'k-rec-silent', 'before-charge');

        assertError(await confirm(charged, 'k-rec-charged'), 409, 'IDEMPOTENCY_KEY_IN_USE');
        assertError(await confirm(charged, 'k-rec-other'), 409, 'INTENT_ALREADY_PROCESSED');
        assert.equal(await t.services.intents.recoverStuckConfirmations(), 0, 'nothing recovered within the lease');
        assert.equal((await intentRow(charged)).status, 'REQUIRES_CONFIRMATION');

        t.clock.advance(IDEMPOTENCY_LEASE_MS + 1);
        const calls = acquirer.calls;
        assert.equal(await t.services.intents.recoverStuckConfirmations(), 2);
        assert.equal(acquirer.calls, calls, 'recovery reads the acquirer record, it does not charge again');

        const done = await intentRow(charged);
        assert.equal(done.status, 'CONFIRMED');
        const [trx] = await transactionsOf(charged);
        assert.equal(trx?.id, done.transaction_id);
        assert.equal(trx!.status, 'PENDING');
        assert.deepEqual(await eventTypes(trx!.id), ['transaction.created']);
        assert.equal((await chargesOf(charged)).length, 1);
        const replay = await confirm(charged, 'k-rec-charged');
        assert.equal(replay.statusCode, 201, replay.body);
        assert.equal(replay.headers['idempotent-replayed'], 'true');
        assert.equal(replay.json<Json>().id, trx!.id);

        assert.equal((await intentRow(silent)).status, 'FAILED');
        assert.equal((await transactionsOf(silent)).length, 0);
        assert.equal((await chargesOf(silent)).length, 0);
        const failedReplay = await confirm(silent, 'k-rec-silent');
        assertError(failedReplay, 502, 'PROVIDER_ERROR');
        assert.equal(failedReplay.headers['idempotent-replayed'], 'true');
        assert.equal((await confirm(silent, 'k-rec-silent')).body, failedReplay.body);
        assert.equal(await t.services.intents.recoverStuckConfirmations(), 0, 'finished intents are not claimed again');
      });

      test('past the lease, a retry with the same key takes over and finishes from the acquirer record', async () => {
        const { id } = await createIntent({ amountCents: 34_567 });
        await confirmThatDies(id, 'k-takeover', 'after-charge');
        t.clock.advance(IDEMPOTENCY_LEASE_MS + 1);
        const res = await confirm(id, 'k-takeover');
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.headers['idempotent-replayed'], undefined);
        assert.equal(res.json<Json>().status, 'PENDING');
        assert.equal((await transactionsOf(id)).length, 1);
        assert.equal((await chargesOf(id)).length, 1, 'one charge');
        const replay = await confirm(id, 'k-takeover');
        assert.equal(replay.body, res.body, 'byte-identical');
        assert.equal(replay.headers['idempotent-replayed'], 'true');
      });

      test('create with confirm: true that died is resumed by a retry with the same key, not created twice', async () => {
        const body = pixIntent({ referenceId: `svc-${randomUUID()}`, confirm: true, amountCents: 45_678 });
        const reached = acquirer.dieOnNextCharge('after-charge');
        void t.call({ method: 'POST', url: '/v2/payment-intents', headers: { 'idempotency-key': 'k-create-dies' }, payload: body });
        await reached;
        t.clock.advance(IDEMPOTENCY_LEASE_MS + 1);
        const res = await t.call({ method: 'POST', url: '/v2/payment-intents', headers: { 'idempotency-key': 'k-create-dies' }, payload: body });
        assert.equal(res.statusCode, 201, res.body);
        const intent = res.json<Json>();
        assert.equal(intent.status, 'CONFIRMED');
        assert.equal(intent.transaction.status, 'PENDING');
        const rows = await t.db.db.selectFrom('payment_intents').select('id').where('reference_id', '=', body.referenceId).execute();
        assert.equal(rows.length, 1, 'one intent');
        assert.equal((await chargesOf(intent.id)).length, 1);
      });
    });

    describe('cards: the process died after phase 1', () => {
      test('the vault and acquirer answered: a retry after the lease finishes from the record, 201, one charge', async () => {
        const intent = await newCardIntent({ amountCents: 20_000, installments: 2 });
        const token = await tokenize(intent);
        await confirmThatDies(intent.id, 'k-card-retry', 'after-charge', { token });
        assert.equal((await chargesOf(intent.id)).length, 1);

        assertError(await confirm(intent.id, 'k-card-retry', { token }), 409, 'IDEMPOTENCY_KEY_IN_USE');
        assertError(await confirm(intent.id, randomUUID(), { token }), 409, 'INTENT_ALREADY_PROCESSED');

        t.clock.advance(IDEMPOTENCY_LEASE_MS + 1);
        const res = await confirm(intent.id, 'k-card-retry', { token });
        assert.equal(res.statusCode, 201, res.body);
        const trx = res.json<Json>();
        assert.equal(trx.status, 'PAID');
        assert.equal(trx.feeCents, 798); // 3.99 % of 20 000
        assert.equal(trx.split.receivables.length, 2);
        assert.deepEqual(trx.paymentDetails, { card: { brand: 'visa', last4: '1111' } });
        assert.equal((await chargesOf(intent.id)).length, 1, 'exactly one acquirer record');
        assert.deepEqual(await eventTypes(trx.id), ['transaction.created', 'transaction.paid']);
        const replay = await confirm(intent.id, 'k-card-retry', { token });
        assert.equal(replay.body, res.body);
        assert.equal(replay.headers['idempotent-replayed'], 'true');
      });

      test('a refusal is an outcome too: the worker records the FAILED transaction; a retry replays it', async () => {
        const intent = await newCardIntent();
        const token = await tokenize(intent, '4111113111110002');
        await confirmThatDies(intent.id, 'k-card-refused', 'after-charge', { token });
        t.clock.advance(IDEMPOTENCY_LEASE_MS + 1);
        assert.equal(await t.services.intents.recoverStuckConfirmations(), 1);
        const recovered = await intentRow(intent.id);
        assert.equal(recovered.status, 'CONFIRMED');
        const [row] = await transactionsOf(intent.id);
        assert.equal(row?.status, 'FAILED');
        assert.equal((row!.payment_details as Json).card.refusalCode, 'insufficient_funds');
        assert.deepEqual(await eventTypes(row!.id), ['transaction.created', 'transaction.canceled']);
        const replay = await confirm(intent.id, 'k-card-refused', { token });
        assert.equal(replay.statusCode, 201, replay.body);
        assert.equal(replay.headers['idempotent-replayed'], 'true');
        assert.equal(replay.json<Json>().id, row!.id);
        assert.equal((await chargesOf(intent.id)).length, 1, 'never a second charge');
      });

      test('the vault spent the token but the acquirer never answered: the CVV is already gone, a retry is FAILED as unknown and nothing is guessed', async () => {
        const intent = await newCardIntent();
        const token = await tokenize(intent);
        await confirmThatDies(intent.id, 'k-card-spent', 'before-charge', { token });
        const spent = await tokenRow(token);
        assert.ok(spent.used_at, 'the token is spent');
        assert.equal(spent.cvv_sealed, null, 'its CVV was erased in the commit that spent it, before the acquirer call');
        t.clock.advance(IDEMPOTENCY_LEASE_MS + 1);
        // The earlier call may still reach the acquirer: the retry does not charge again and does not claim "refused".
        assertError(await confirm(intent.id, 'k-card-spent', { token }), 502, 'PROVIDER_ERROR');
        const row = await intentRow(intent.id);
        assert.equal(row.status, 'FAILED');
        assert.ok(row.outcome_unknown_since, 'recorded as unknown, to be resolved from the acquirer record');
        assert.equal((await chargesOf(intent.id)).length, 0);
        assertError(await confirm(intent.id, randomUUID(), { token }), 409, 'INTENT_ALREADY_PROCESSED');
      });

      test('the acquirer never answered and no retry came: the worker fails the intent, nothing charged', async () => {
        const intent = await newCardIntent();
        const token = await tokenize(intent);
        await confirmThatDies(intent.id, 'k-card-lost', 'before-charge', { token });
        t.clock.advance(IDEMPOTENCY_LEASE_MS + 1);
        assert.equal(await t.services.intents.recoverStuckConfirmations(), 1);
        assert.equal((await intentRow(intent.id)).status, 'FAILED');
        assert.equal((await transactionsOf(intent.id)).length, 0);
        const replay = await confirm(intent.id, 'k-card-lost', { token });
        assertError(replay, 502, 'PROVIDER_ERROR');
        assert.equal(replay.headers['idempotent-replayed'], 'true');
        assert.equal((await chargesOf(intent.id)).length, 0, 'the replay did not charge');
      });
    });
  });
}
