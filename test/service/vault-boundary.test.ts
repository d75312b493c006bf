/**
 * The vault's boundary: the vault reads none of the API's tables, so it learns
 * which card intents are over from the API's notice (POST
 * /internal/closed-intents, internal bearer) or from a token it spent, and
 * keeps that in its own table. A closed intent's ticket is refused and its
 * tokens' cards are erased by the vault's sweep. A notice the vault did not
 * acknowledge (unreachable when the intent closed) is told again by the
 * worker, so the card is still erased once the vault is back.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { hashToken, httpVaultClient, internalBearer, type ClosedIntentNotice } from '../../src/modules/vault/index.js';
import { encryptCard, runWorkerStep, startTestApp, tokenizeCard, type TestApp } from '../helpers/app.js';
import { assertError } from '../helpers/assert.js';
import { engines } from '../helpers/db.js';
import { cardIntent, pixIntent } from '../helpers/fixtures.js';
import { RETRY_AFTER_MS } from '../../src/modules/payment-intents/vault-notices.js';

type Json = Record<string, any>;

for (const engine of engines()) {
  describe(`the vault's boundary (${engine})`, () => {
    let t: TestApp;

    before(async () => {
      t = await startTestApp(engine);
    });
    after(() => t.close());

    const newCardIntent = async (): Promise<Json> => {
      const res = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: cardIntent({ referenceId: `boundary-${randomUUID()}` }) });
      assert.equal(res.statusCode, 201, res.body);
      return res.json();
    };
    const tokenizeFor = (intent: Json) => tokenizeCard(t, intent.cardTokenization);
    /** The raw /tokenize answer for this intent's ticket (tokenizeCard asserts a 201). */
    const tryTokenize = async (intent: Json) => {
      const card = { number: '4111111111111111', holderName: 'MARIA DA SILVA', expMonth: 12, expYear: 2030, cvv: '739' };
      const { ticket, encryptionKey } = intent.cardTokenization as { ticket: string; encryptionKey: { kid: string } };
      return t.vaultApp.inject({ method: 'POST', url: '/tokenize', payload: { ticket, keyId: encryptionKey.kid, encryptedCard: await encryptCard(intent.cardTokenization, card) } });
    };
    const holdsCard = async (token: string) => {
      const row = await t.db.db.selectFrom('vault.tokens').select(['card_sealed', 'cvv_sealed']).where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();
      return row.card_sealed !== null || row.cvv_sealed !== null;
    };
    const toldAt = async (id: string) => (await t.db.db.selectFrom('payment_intents').select('vault_told_at').where('id', '=', id).executeTakeFirstOrThrow()).vault_told_at;
    const sweep = () => t.vault.sweeper.sweep(t.clock.now());
    const notice = (intent: Json): ClosedIntentNotice => ({ intentId: intent.id, expiresAt: new Date(intent.expiresAt).getTime() });
    const postClosed = (payload: unknown, authorization?: string) =>
      t.vaultApp.inject({ method: 'POST', url: '/internal/closed-intents', headers: authorization ? { authorization } : {}, payload: payload as Json });

    test('POST /internal/closed-intents: refused without the internal bearer or with a bad body; once told, the ticket is refused and the sweep erases the card', async () => {
      const intent = await newCardIntent();
      const { token } = await tokenizeFor(intent);
      assertError(await postClosed({ intents: [notice(intent)] }), 401, 'UNAUTHORIZED');
      assertError(await postClosed({ intents: [notice(intent)] }, `Bearer ${internalBearer(randomBytes(32))}`), 401, 'UNAUTHORIZED');
      const bearer = `Bearer ${internalBearer(t.deps.internalKey)}`;
      // Past the bearer, errors come in every language, as on /internal/authorize.
      const bad = await postClosed({ intents: [{ intentId: intent.id }] }, bearer);
      assert.equal(bad.statusCode, 400, bad.body);
      assert.equal(bad.json().code, 'VALIDATION_ERROR');
      assert.equal(await sweep(), 0, 'nothing told yet: the card is kept');
      assert.ok(await holdsCard(token));

      // Told twice in one call, and again: recorded once.
      const told = await postClosed({ intents: [notice(intent), notice(intent)] }, bearer);
      assert.equal(told.statusCode, 204, told.body);
      assert.equal((await postClosed({ intents: [notice(intent)] }, bearer)).statusCode, 204);
      assertError(await tryTokenize(intent), 409, 'INTENT_ALREADY_PROCESSED');
      assert.equal(await sweep(), 1);
      assert.equal(await holdsCard(token), false);
    });

    test('the vault unreachable when a card intent is canceled: the cancel answers, the worker tells the vault once it is back, and the card is erased', async () => {
      const intent = await newCardIntent();
      const { token } = await tokenizeFor(intent);
      const client = t.deps.vault;
      const reachable = client.intentsClosed;
      let calls = 0;
      client.intentsClosed = async () => {
        calls++;
        throw new Error('vault unreachable: connect ECONNREFUSED');
      };
      try {
        const canceled = await t.call({ method: 'POST', url: `/v2/payment-intents/${intent.id}/cancel` });
        assert.equal(canceled.statusCode, 200, canceled.body);
        assert.equal(calls, 1, 'the cancel tried to tell the vault at once');
        assert.equal(await toldAt(intent.id), null, 'not acknowledged: still to tell');
        await runWorkerStep(t, 'tell-vault');
        assert.equal(calls, 1, 'a vault that did not answer is left alone a while');
        t.clock.advance(RETRY_AFTER_MS);
        await runWorkerStep(t, 'tell-vault');
        assert.equal(calls, 2, 'the worker tried again');
        assert.equal(await toldAt(intent.id), null);
        assert.equal(await sweep(), 0, 'the vault does not know yet');
        assert.ok(await holdsCard(token));
      } finally {
        client.intentsClosed = reachable;
      }
      t.clock.advance(RETRY_AFTER_MS);
      await runWorkerStep(t, 'tell-vault');
      assert.ok(await toldAt(intent.id), 'acknowledged');
      assert.equal(await sweep(), 1);
      assert.equal(await holdsCard(token), false, 'erased once the vault heard of the cancel');
      assertError(await tryTokenize(intent), 409, 'INTENT_ALREADY_PROCESSED');
    });

    test('the worker tells the vault of confirmed card intents too, never of Pix ones, and only once', async () => {
      const intent = await newCardIntent();
      const { token } = await tokenizeFor(intent);
      const paid = await t.call({ method: 'POST', url: `/v2/payment-intents/${intent.id}/confirm`, headers: { 'idempotency-key': randomUUID() }, payload: { token } });
      assert.equal(paid.statusCode, 201, paid.body);
      const pix = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ confirm: true }) });
      assert.equal(pix.statusCode, 201, pix.body);

      const told: ClosedIntentNotice[] = [];
      const client = t.deps.vault;
      const reachable = client.intentsClosed;
      client.intentsClosed = async (notices) => {
        told.push(...notices);
        await reachable(notices);
      };
      try {
        await runWorkerStep(t, 'tell-vault');
        await runWorkerStep(t, 'tell-vault');
      } finally {
        client.intentsClosed = reachable;
      }
      assert.deepEqual(told.filter((n) => n.intentId === intent.id), [notice(intent)], 'told once, with its expiry');
      assert.equal(told.some((n) => n.intentId === pix.json().id), false);
      assert.ok(await toldAt(intent.id));
    });

    test('over HTTP: the client gets the vault\'s acknowledgement, and rejects when the vault refuses or cannot be reached', async () => {
      const address = await t.vaultApp.listen({ port: 0, host: '127.0.0.1' });
      const intent = await newCardIntent();
      await httpVaultClient(address, t.deps.internalKey).intentsClosed([notice(intent)]);
      assertError(await tryTokenize(intent), 409, 'INTENT_ALREADY_PROCESSED');
      await assert.rejects(httpVaultClient(address, randomBytes(32)).intentsClosed([notice(intent)]), /401/);
      await assert.rejects(httpVaultClient('http://127.0.0.1:1', t.deps.internalKey).intentsClosed([notice(intent)]));
    });
  });
}
