/**
 * The card vault over HTTP (its own Fastify app, driven with inject): the
 * public keys and their rotation, the JWE round trip of POST /tokenize, card
 * validation without echoing card data, tickets, the per-ticket and per-IP
 * attempt limits, body limits, card data at rest and its erasure, the
 * browser files (/sdk.js, /hosted-fields) and the internal route's bearer.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import vm from 'node:vm';
import type { FastifyInstance } from 'fastify';
import { CompactEncrypt, importJWK, type JWK } from 'jose';
import { newId } from '../../src/lib/ids.js';
import {
  KEY_CACHE_MS,
  KEY_OVERLAP_MS,
  MAX_ATTEMPTS_PER_TICKET,
  buildVault,
  hashToken,
  internalBearer,
  signTicket,
} from '../../src/modules/vault/index.js';
import { buildVaultApp } from '../../src/vault-app.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/db.js';
import { assertError, assertErrorBody } from '../helpers/assert.js';
import { rawHttp } from '../helpers/raw-http.js';
import { cardIntent } from '../helpers/fixtures.js';

const INTENT_LIFETIME_MS = 5 * 60_000;

interface VaultKeyView {
  keyId: string;
  alg: string;
  enc: string;
  current: boolean;
  jwk: { kty: string; kid: string; alg: string; use: string; n: string; e: string };
}

interface Card {
  number?: unknown;
  holderName?: unknown;
  expMonth?: unknown;
  expYear?: unknown;
  cvv?: unknown;
}

/** A valid Visa, good through 2030 (the manual clock starts in November 2026). */
const VISA: Card = { number: '4111111111111111', holderName: 'MARIA DA SILVA', expMonth: 12, expYear: 2030, cvv: '739' };

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** `body` followed by the digit that makes it Luhn-valid. */
function withCheckDigit(body: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(`${body}${d}`)) return `${body}${d}`;
  throw new Error('unreachable');
}

/** As the hosted fields do: the JWE's protected header names the ticket it is encrypted for (`ticket` undefined: a header without it). */
async function encryptCard(card: Card, jwk: VaultKeyView['jwk'] | JWK, ticket: string | undefined, kid = (jwk as { kid: string }).kid): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(card)))
    .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid, ...(ticket === undefined ? {} : { ticket }) })
    .encrypt(await importJWK(jwk as JWK, 'RSA-OAEP-256'));
}

async function listKeys(vaultApp: FastifyInstance): Promise<VaultKeyView[]> {
  const res = await vaultApp.inject({ method: 'GET', url: '/keys' });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ keys: VaultKeyView[] }>().keys;
}

async function currentKey(vaultApp: FastifyInstance): Promise<VaultKeyView> {
  const [first] = await listKeys(vaultApp);
  assert.ok(first?.current, 'the first key is the current one');
  return first;
}

function postTokenize(vaultApp: FastifyInstance, body: unknown, remoteAddress?: string) {
  return vaultApp.inject({
    method: 'POST',
    url: '/tokenize',
    headers: { 'content-type': 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/** A card intent through the API; answers its id, ticket and expiry. */
async function createCardIntent(t: TestApp, overrides: Record<string, unknown> = {}): Promise<{ id: string; ticket: string; expiresAt: string }> {
  const res = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: cardIntent({ referenceId: `vault-${randomUUID()}`, ...overrides }) });
  assert.equal(res.statusCode, 201, res.body);
  const intent = res.json<{ id: string; status: string; expiresAt: string; cardTokenization: { ticket: string } }>();
  assert.equal(intent.status, 'REQUIRES_TOKEN');
  return { id: intent.id, ticket: intent.cardTokenization.ticket, expiresAt: intent.expiresAt };
}

/**
 * A vault app over the test app's database with a low limit, to see it work: 5 tokenize attempts per
 * client IP per minute (every test uses the same card). Its own master key makes the current key,
 * which the API then hands out.
 */
async function vaultAppWithLowIpLimit(t: TestApp): Promise<FastifyInstance> {
  const vault = buildVault({
    db: t.db.db,
    clock: t.clock,
    newId,
    acquirer: t.deps.providers.CREDIT_CARD,
    masterKey: randomBytes(32),
    internalKey: t.deps.internalKey,
    attemptsPerIpPerMinute: 5,
    intentsPerCardPerHour: 1_000,
  });
  await vault.keys.rotate();
  return buildVaultApp({ env: t.deps.config.env, db: t.db.db, keys: vault.keys, tokenizer: vault.tokenizer, client: vault.client, internalKey: t.deps.internalKey });
}

for (const engine of engines()) {
  describe(`vault (${engine})`, () => {
    let t: TestApp;

    before(async () => {
      t = await startTestApp(engine);
    });
    after(() => t.close());

    /** Encrypts `card` with the key /keys lists first and tokenizes it with `ticket`. */
    const tokenize = async (ticket: string, card: Card = VISA) => {
      const key = await currentKey(t.vaultApp);
      return postTokenize(t.vaultApp, { ticket, keyId: key.keyId, encryptedCard: await encryptCard(card, key.jwk, ticket) });
    };
    const tokenRow = (token: string) => t.db.db.selectFrom('vault.tokens').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();

    test('input the buyer\'s browser sends: a NUL in the ticket is 400 naming it, a request the parser refuses gets the error body', async () => {
      const key = await currentKey(t.vaultApp);
      const nul = await postTokenize(t.vaultApp, { ticket: 'tkt_\u0000', keyId: key.keyId, encryptedCard: 'x.y.z.w.v' });
      assert.deepEqual(assertError(nul, 400, 'VALIDATION_ERROR').details?.map((d) => d.field), ['ticket']);
      const address = await t.vaultApp.listen({ port: 0, host: '127.0.0.1' });
      const { response, text } = await rawHttp(Number(new URL(address).port), Buffer.from('FOO /tokenize HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1'));
      assert.equal(response?.status, 400, text);
      assert.match(response.headers['x-request-id'] ?? '', /^[0-9a-f-]{36}$/, text);
      const body = JSON.parse(response.body) as unknown;
      assertErrorBody(body);
      assert.equal(body.code, 'VALIDATION_ERROR');
    });

    test('GET /keys: the current key with its public JWK, cached 5 minutes', async () => {
      const res = await t.vaultApp.inject({ method: 'GET', url: '/keys' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['cache-control'], 'public, max-age=300');
      assert.match(String(res.headers['content-type']), /^application\/json/);
      const body = res.json<{ keys: VaultKeyView[] }>();
      assert.deepEqual(Object.keys(body), ['keys']);
      assert.equal(body.keys.length, 1);
      const [key] = body.keys;
      assert.deepEqual(Object.keys(key!).sort(), ['alg', 'current', 'enc', 'jwk', 'keyId']);
      assert.equal(key!.alg, 'RSA-OAEP-256');
      assert.equal(key!.enc, 'A256GCM');
      assert.equal(key!.current, true);
      assert.ok(key!.keyId.length > 0);
      assert.deepEqual(Object.keys(key!.jwk).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use']);
      assert.equal(key!.jwk.kty, 'RSA');
      assert.equal(key!.jwk.kid, key!.keyId);
      assert.equal(key!.jwk.alg, 'RSA-OAEP-256');
      assert.equal(key!.jwk.use, 'enc');
      assert.match(key!.jwk.n, /^[A-Za-z0-9_-]+$/);
      assert.equal(Buffer.from(key!.jwk.n, 'base64url').length, 256, 'a 2048-bit modulus');
      assert.equal(key!.jwk.e, 'AQAB');
    });

    test('JWE round trip: a card encrypted with the /keys key tokenizes → 201 {token, brand, last4, expMonth, expYear} only', async () => {
      const { ticket } = await createCardIntent(t);
      const res = await tokenize(ticket);
      assert.equal(res.statusCode, 201, res.body);
      const body = res.json<Record<string, unknown>>();
      assert.deepEqual(Object.keys(body).sort(), ['brand', 'expMonth', 'expYear', 'last4', 'token']);
      assert.match(String(body.token), /^vtk_[A-Za-z0-9_-]+$/);
      assert.equal(body.brand, 'visa');
      assert.equal(body.last4, '1111');
      assert.equal(body.expMonth, 12);
      assert.equal(body.expYear, 2030);
      assert.ok(!res.body.includes('4111111111111111') && !res.body.includes('"cvv"'), 'neither the number nor the CVV comes back');
    });

    test('rotation: the new key is first and current, the previous one is listed after it and still decrypts; retire() only after 10 minutes', async () => {
      const before = await currentKey(t.vaultApp);
      const newKid = await t.vault.keys.rotate();
      const keys = await listKeys(t.vaultApp);
      assert.deepEqual(keys.map((k) => [k.keyId, k.current]), [[newKid, true], [before.keyId, false]]);
      assert.deepEqual(keys[1]!.jwk, before.jwk, 'the previous key is listed unchanged');

      // A page loaded before the rotation encrypted with the previous key: still accepted.
      const { ticket } = await createCardIntent(t);
      const old = await postTokenize(t.vaultApp, { ticket, keyId: before.keyId, encryptedCard: await encryptCard(VISA, before.jwk, ticket) });
      assert.equal(old.statusCode, 201, old.body);
      const fresh = await tokenize(ticket);
      assert.equal(fresh.statusCode, 201, fresh.body);

      // retire() removes nothing before the overlap has passed.
      assert.deepEqual(await t.vault.keys.retire(), []);
      t.clock.advance(KEY_OVERLAP_MS - 1);
      assert.deepEqual(await t.vault.keys.retire(), []);
      assert.deepEqual((await listKeys(t.vaultApp)).map((k) => k.keyId), [newKid, before.keyId]);

      t.clock.advance(1);
      assert.deepEqual(await t.vault.keys.retire(), [before.keyId]);
      const after = await listKeys(t.vaultApp);
      assert.deepEqual(after.map((k) => [k.keyId, k.current]), [[newKid, true]]);

      // The retired key decrypts nothing any more.
      const { ticket: ticket2 } = await createCardIntent(t);
      const refused = await postTokenize(t.vaultApp, { ticket: ticket2, keyId: before.keyId, encryptedCard: await encryptCard(VISA, before.jwk, ticket2) });
      assertError(refused, 400, 'VALIDATION_ERROR', 'keyId', { exactly: true });
      assert.equal((await tokenize(ticket2)).statusCode, 201, 'the current key still works');
    });

    test('the API hands out the key /keys lists first', async () => {
      const key = await currentKey(t.vaultApp);
      const res = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: cardIntent() });
      assert.equal(res.statusCode, 201, res.body);
      assert.deepEqual(res.json<{ cardTokenization: { encryptionKey: unknown } }>().cardTokenization.encryptionKey, key.jwk);
    });

    test('an unknown keyId is 400 naming keyId', async () => {
      const { ticket } = await createCardIntent(t);
      const key = await currentKey(t.vaultApp);
      const res = await postTokenize(t.vaultApp, { ticket, keyId: 'vk_unknown', encryptedCard: await encryptCard(VISA, key.jwk, ticket, 'vk_unknown') });
      assertError(res, 400, 'VALIDATION_ERROR', 'keyId', { exactly: true });
    });

    test('a JWE whose kid differs from keyId is 400 naming encryptedCard', async () => {
      const { ticket } = await createCardIntent(t);
      const key = await currentKey(t.vaultApp);
      const res = await postTokenize(t.vaultApp, { ticket, keyId: key.keyId, encryptedCard: await encryptCard(VISA, key.jwk, ticket, 'vk_other') });
      assertError(res, 400, 'VALIDATION_ERROR', 'encryptedCard', { exactly: true });
    });

    test('garbage instead of a JWE is 400 naming encryptedCard', async () => {
      const { ticket } = await createCardIntent(t);
      const key = await currentKey(t.vaultApp);
      for (const garbage of ['not-a-jwe', 'a.b.c.d.e', `${(await encryptCard(VISA, key.jwk, ticket)).slice(0, -4)}AAAA`]) {
        assertError(await postTokenize(t.vaultApp, { ticket, keyId: key.keyId, encryptedCard: garbage }), 400, 'VALIDATION_ERROR', 'encryptedCard', { exactly: true });
      }
    });

    test('a JWE is bound to its ticket: replayed with another intent\'s ticket, or with no ticket in its header, it is 400 naming encryptedCard', async () => {
      const a = await createCardIntent(t);
      const b = await createCardIntent(t);
      const key = await currentKey(t.vaultApp);
      const captured = await encryptCard(VISA, key.jwk, a.ticket);
      const replayed = await postTokenize(t.vaultApp, { ticket: b.ticket, keyId: key.keyId, encryptedCard: captured });
      assertError(replayed, 400, 'VALIDATION_ERROR', 'encryptedCard', { exactly: true });
      const unbound = await postTokenize(t.vaultApp, { ticket: b.ticket, keyId: key.keyId, encryptedCard: await encryptCard(VISA, key.jwk, undefined) });
      assertError(unbound, 400, 'VALIDATION_ERROR', 'encryptedCard', { exactly: true });
      assert.equal(await t.db.db.selectFrom('vault.tokens').select('id').where('intent_id', '=', b.id).executeTakeFirst(), undefined, 'no token for the other intent');
      // The header cannot be rewritten to name the other ticket: AES-GCM authenticates it.
      const [, ...rest] = captured.split('.');
      const header = Buffer.from(JSON.stringify({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: key.keyId, ticket: b.ticket })).toString('base64url');
      const rewritten = await postTokenize(t.vaultApp, { ticket: b.ticket, keyId: key.keyId, encryptedCard: [header, ...rest].join('.') });
      assertError(rewritten, 400, 'VALIDATION_ERROR', 'encryptedCard', { exactly: true });
      // Its own ticket takes it.
      assert.equal((await postTokenize(t.vaultApp, { ticket: a.ticket, keyId: key.keyId, encryptedCard: captured })).statusCode, 201);
    });

    test('a JWE is accepted once: the same encrypted card sent again is 400 naming encryptedCard, and no second token is made', async () => {
      const { id, ticket } = await createCardIntent(t);
      const key = await currentKey(t.vaultApp);
      const encryptedCard = await encryptCard(VISA, key.jwk, ticket);
      assert.equal((await postTokenize(t.vaultApp, { ticket, keyId: key.keyId, encryptedCard })).statusCode, 201);
      assertError(await postTokenize(t.vaultApp, { ticket, keyId: key.keyId, encryptedCard }), 400, 'VALIDATION_ERROR', 'encryptedCard', { exactly: true });
      // Concurrent sends of one fresh JWE: exactly one wins.
      const fresh = await encryptCard(VISA, key.jwk, ticket);
      const race = await Promise.all([1, 2].map(() => postTokenize(t.vaultApp, { ticket, keyId: key.keyId, encryptedCard: fresh })));
      assert.deepEqual(race.map((r) => r.statusCode).sort(), [201, 400]);
      assert.equal((await t.db.db.selectFrom('vault.tokens').select('id').where('intent_id', '=', id).execute()).length, 2);
      // The same card encrypted again (as the hosted fields do on each submit) is a new JWE.
      assert.equal((await tokenize(ticket)).statusCode, 201);
    });

    test('tokenize is refused unless the intent waits for a token: canceled or confirmed → 409 INTENT_ALREADY_PROCESSED', async () => {
      const canceled = await createCardIntent(t);
      const cancel = await t.call({ method: 'POST', url: `/v2/payment-intents/${canceled.id}/cancel`, headers: { 'idempotency-key': randomUUID() } });
      assert.equal(cancel.statusCode, 200, cancel.body);
      assertError(await tokenize(canceled.ticket), 409, 'INTENT_ALREADY_PROCESSED');
      assert.equal(await t.db.db.selectFrom('vault.tokens').select('id').where('intent_id', '=', canceled.id).executeTakeFirst(), undefined);

      const confirmed = await createCardIntent(t);
      const { token } = (await tokenize(confirmed.ticket)).json<{ token: string }>();
      const paid = await t.call({ method: 'POST', url: `/v2/payment-intents/${confirmed.id}/confirm`, headers: { 'idempotency-key': randomUUID() }, payload: { token } });
      assert.equal(paid.statusCode, 201, paid.body);
      assertError(await tokenize(confirmed.ticket), 409, 'INTENT_ALREADY_PROCESSED');
    });

    test('every invalid card is 400 VALIDATION_ERROR naming its field, and never echoes the number or the CVV', async () => {
      const cases: { name: string; card: Card; field: string }[] = [
        { name: 'Luhn failure', card: { ...VISA, number: '4111111111111112' }, field: 'number' },
        { name: 'unknown brand', card: { ...VISA, number: withCheckDigit('900000000000123') }, field: 'number' },
        { name: 'Visa with 15 digits', card: { ...VISA, number: withCheckDigit('41111111111111') }, field: 'number' },
        { name: 'Amex with 16 digits', card: { ...VISA, number: withCheckDigit('378282246310005'), cvv: '7391' }, field: 'number' },
        { name: 'expMonth 13', card: { ...VISA, expMonth: 13 }, field: 'expMonth' },
        { name: 'expired last month', card: { ...VISA, expMonth: 10, expYear: 2026 }, field: 'expMonth' },
        { name: 'expired last year', card: { ...VISA, expMonth: 12, expYear: 2025 }, field: 'expYear' },
        { name: '4-digit CVV on Visa', card: { ...VISA, cvv: '7391' }, field: 'cvv' },
        { name: '3-digit CVV on Amex', card: { ...VISA, number: '378282246310005', cvv: '739' }, field: 'cvv' },
        { name: 'empty holderName', card: { ...VISA, holderName: '' }, field: 'holderName' },
      ];
      for (const c of cases) {
        assert.ok(typeof c.card.number === 'string' && luhnValid(c.card.number) === (c.name !== 'Luhn failure'), c.name);
        const { ticket } = await createCardIntent(t);
        const res = await tokenize(ticket, c.card);
        const body = assertError(res, 400, 'VALIDATION_ERROR', c.field);
        assert.ok(body.message.length > 0, c.name);
        const text = JSON.stringify(body);
        assert.ok(!text.includes(String(c.card.number)), `${c.name}: the number is not in ${res.body}`);
        assert.ok(!text.includes(String(c.card.cvv)), `${c.name}: the CVV is not in ${res.body}`);
      }
      assert.equal(await t.db.db.selectFrom('vault.tokens').select('id').where('last4', '=', '1112').executeTakeFirst(), undefined, 'no token stored');
    });

    test('a ticket expires with its intent: TICKET_EXPIRED (401) once the 5 minutes pass', async () => {
      const a = await createCardIntent(t);
      const b = await createCardIntent(t);
      t.clock.advance(INTENT_LIFETIME_MS - 1000);
      const last = await tokenize(a.ticket);
      assert.equal(last.statusCode, 201, `valid up to the last second: ${last.body}`);
      t.clock.advance(1000);
      assertError(await tokenize(b.ticket), 401, 'TICKET_EXPIRED');
      assertError(await tokenize(a.ticket), 401, 'TICKET_EXPIRED');
    });

    test('a forged or malformed ticket is 400 naming ticket', async () => {
      const { id, expiresAt } = await createCardIntent(t);
      const forged = signTicket(randomBytes(32), { intentId: id, companyId: t.companyId, expiresAt: new Date(expiresAt) });
      assertError(await tokenize(forged), 400, 'VALIDATION_ERROR', 'ticket', { exactly: true });
      assertError(await tokenize('not.a.ticket'), 400, 'VALIDATION_ERROR', 'ticket', { exactly: true });
      const { ticket } = await createCardIntent(t);
      const [header, payload, signature] = ticket.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
      const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: id })).toString('base64url')}.${signature}`;
      assertError(await tokenize(tampered), 400, 'VALIDATION_ERROR', 'ticket', { exactly: true });
    });

    test(`at most ${MAX_ATTEMPTS_PER_TICKET} attempts per ticket, bad cards included: the next is 429 RATE_LIMITED with Retry-After`, async () => {
      const { ticket, expiresAt } = await createCardIntent(t);
      assert.equal((await tokenize(ticket)).statusCode, 201);
      for (let i = 1; i < MAX_ATTEMPTS_PER_TICKET; i++) {
        assertError(await tokenize(ticket, { ...VISA, cvv: '12' }), 400, 'VALIDATION_ERROR', 'cvv', { exactly: true });
      }
      const limited = await tokenize(ticket);
      assertError(limited, 429, 'RATE_LIMITED');
      const retryAfter = Number(limited.headers['retry-after']);
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After: ${limited.headers['retry-after']}`);
      assert.ok(retryAfter <= Math.ceil((Date.parse(expiresAt) - t.clock.now().getTime()) / 1000));
      assertError(await tokenize(ticket), 429, 'RATE_LIMITED');
      // Another intent's ticket is not affected.
      assert.equal((await tokenize((await createCardIntent(t)).ticket)).statusCode, 201);
    });

    test('a body over 16 KiB is 413 PAYLOAD_TOO_LARGE', async () => {
      const { ticket } = await createCardIntent(t);
      const key = await currentKey(t.vaultApp);
      const res = await postTokenize(t.vaultApp, { ticket, keyId: key.keyId, encryptedCard: 'x'.repeat(17 * 1024) });
      assertError(res, 413, 'PAYLOAD_TOO_LARGE');
      // Just under the limit the body is read (and refused by the schema, not by size).
      const overhead = Buffer.byteLength(JSON.stringify({ ticket, keyId: key.keyId, encryptedCard: '' }));
      const under = JSON.stringify({ ticket, keyId: key.keyId, encryptedCard: 'x'.repeat(16 * 1024 - overhead) });
      assert.equal(Buffer.byteLength(under), 16 * 1024);
      assertError(await postTokenize(t.vaultApp, under), 400, 'VALIDATION_ERROR', 'encryptedCard', { exactly: true });
    });

    test('an unknown body field, a missing field or malformed JSON is 400', async () => {
      const { ticket } = await createCardIntent(t);
      const key = await currentKey(t.vaultApp);
      const encryptedCard = await encryptCard(VISA, key.jwk, ticket);
      assertError(await postTokenize(t.vaultApp, { ticket, keyId: key.keyId, encryptedCard, cvv: '123' }), 400, 'VALIDATION_ERROR', 'cvv', { exactly: true });
      assertError(await postTokenize(t.vaultApp, { ticket, keyId: key.keyId }), 400, 'VALIDATION_ERROR', 'encryptedCard', { exactly: true });
      assertError(await postTokenize(t.vaultApp, '{"ticket":'), 400, 'VALIDATION_ERROR');
    });

    test('card data at rest: the sealed columns hold neither the number nor the CVV in plaintext', async () => {
      const { id, ticket } = await createCardIntent(t);
      const card = { ...VISA, number: '5555555555554444', cvv: '826', holderName: 'JOAO PEREIRA' };
      const res = await tokenize(ticket, card);
      assert.equal(res.statusCode, 201, res.body);
      const { token } = res.json<{ token: string }>();
      const row = await tokenRow(token);
      assert.equal(row.intent_id, id);
      assert.equal(row.company_id, t.companyId);
      assert.equal(row.brand, 'mastercard');
      assert.equal(row.last4, '4444');
      assert.equal(row.used_at, null);
      assert.ok(row.cvv_sealed, 'the CVV is kept (sealed) until the token is used');
      for (const [column, sealed] of [['card_sealed', row.card_sealed], ['cvv_sealed', row.cvv_sealed]] as const) {
        assert.ok(sealed, `${column} is held until the token is spent`);
        assert.match(sealed, /^v1\.[A-Za-z0-9+/]+=*$/, column);
        assert.ok(!sealed.includes(card.number), `${column} does not hold the number`);
        assert.ok(!sealed.includes(card.holderName), `${column} does not hold the holder name`);
        // The sealed bytes: a 3-digit CVV may occur in base64 text by chance, not in the ciphertext bytes.
        const bytes = Buffer.from(sealed.slice(3), 'base64');
        for (const secret of [card.number, card.cvv, '"cvv"', '"number"']) {
          assert.equal(bytes.indexOf(Buffer.from(secret)), -1, `${column} bytes do not hold ${secret}`);
        }
      }
      assert.ok(!JSON.stringify(row).includes(card.number), 'no column holds the number');
      assert.ok(!JSON.stringify(row).includes(token), 'the token itself is not stored');
    });

    test('the card and its CVV are erased once a confirm used the token; brand, last 4 and expiry stay', async () => {
      const { id, ticket } = await createCardIntent(t);
      const res = await tokenize(ticket);
      const { token } = res.json<{ token: string }>();
      assert.ok((await tokenRow(token)).cvv_sealed);
      const confirmed = await t.call({ method: 'POST', url: `/v2/payment-intents/${id}/confirm`, headers: { 'idempotency-key': randomUUID() }, payload: { token } });
      assert.equal(confirmed.statusCode, 201, confirmed.body);
      assert.equal(confirmed.json<{ status: string }>().status, 'PAID');
      const row = await tokenRow(token);
      assert.equal(row.cvv_sealed, null);
      assert.ok(row.used_at);
      assert.equal(row.card_sealed, null, 'the card is not kept after the payment (issue 26)');
      assert.deepEqual([row.brand, row.last4, row.exp_month, row.exp_year], ['visa', '1111', 12, 2030]);
    });

    test('the card and CVV of an unused token are erased by the vault\'s sweep once its intent expired', async () => {
      const { ticket } = await createCardIntent(t);
      const res = await tokenize(ticket);
      const { token } = res.json<{ token: string }>();
      const sweep = () => t.vault.sweeper.sweep(t.clock.now());
      await sweep();
      assert.ok((await tokenRow(token)).cvv_sealed, 'kept while the intent lives');
      t.clock.advance(INTENT_LIFETIME_MS - 1);
      await sweep();
      assert.ok((await tokenRow(token)).cvv_sealed, 'kept until the last millisecond');
      t.clock.advance(1);
      await sweep();
      const row = await tokenRow(token);
      assert.equal(row.cvv_sealed, null);
      assert.equal(row.card_sealed, null);
      assert.equal(row.used_at, null);
    });

    test('GET /sdk.js: the SvcVault script 0.3.0, cached 5 minutes with an ETag; If-None-Match → 304', async () => {
      const res = await t.vaultApp.inject({ method: 'GET', url: '/sdk.js' });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^(application|text)\/javascript/);
      assert.equal(res.headers['cache-control'], 'public, max-age=300');
      const etag = String(res.headers.etag ?? '');
      assert.match(etag, /^"[^"]+"$/);
      // The script runs as it is and defines the global SvcVault.
      const sandbox: { SvcVault?: { version: string; mount: unknown } } = {};
      vm.runInNewContext(res.body, sandbox);
      assert.equal(sandbox.SvcVault?.version, '0.3.0');
      assert.equal(typeof sandbox.SvcVault?.mount, 'function');

      const notModified = await t.vaultApp.inject({ method: 'GET', url: '/sdk.js', headers: { 'if-none-match': etag } });
      assert.equal(notModified.statusCode, 304);
      assert.equal(notModified.body, '');
      assert.equal(notModified.headers.etag, etag);
      const listed = await t.vaultApp.inject({ method: 'GET', url: '/sdk.js', headers: { 'if-none-match': `"other", ${etag}` } });
      assert.equal(listed.statusCode, 304);
      const changed = await t.vaultApp.inject({ method: 'GET', url: '/sdk.js', headers: { 'if-none-match': '"stale"' } });
      assert.equal(changed.statusCode, 200);
      assert.equal(changed.body, res.body);
    });

    test('GET /hosted-fields: HTML with a strict Content-Security-Policy and no referrer', async () => {
      const res = await t.vaultApp.inject({ method: 'GET', url: '/hosted-fields' });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.match(res.body, /<html/i);
      const csp = String(res.headers['content-security-policy'] ?? '');
      const directives = new Map(csp.split(';').map((d) => d.trim()).filter(Boolean).map((d) => [d.split(/\s+/)[0]!, d.split(/\s+/).slice(1)]));
      assert.deepEqual(directives.get('script-src'), ["'self'"], csp);
      assert.ok(directives.has('frame-ancestors'), csp);
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
    });

    test('POST /internal/authorize needs the internal bearer: 401 without it or with another', async () => {
      const body = { token: 'vtk_x', intentId: 'pi_x', companyId: t.companyId, amountCents: 100, installments: 1, deadline: Date.now() + 10_000 };
      const post = (authorization?: string) =>
        t.vaultApp.inject({ method: 'POST', url: '/internal/authorize', payload: body, headers: authorization ? { authorization } : {} });
      const missing = await post();
      assertError(missing, 401, 'UNAUTHORIZED');
      assertError(await post(`Bearer ${internalBearer(randomBytes(32))}`), 401, 'UNAUTHORIZED');
      assertError(await post(`Bearer ${t.key}`), 401, 'UNAUTHORIZED');
      // With the bearer, the route answers (an unknown token charged nothing), its texts in every language: the API renders them for its client.
      const refused = await post(`Bearer ${internalBearer(t.deps.internalKey)}`);
      assert.equal(refused.statusCode, 400, refused.body);
      assert.deepEqual(refused.json(), {
        code: 'VALIDATION_ERROR',
        message: { en: 'Invalid value for token: is not a card token of this payment intent', 'pt-BR': 'Valor inválido para token: não é um token de cartão desta intenção de pagamento' },
        details: [{ field: 'token', message: { en: 'is not a card token of this payment intent', 'pt-BR': 'não é um token de cartão desta intenção de pagamento' } }],
      });
    });
  });

  describe(`vault per-IP limit (${engine})`, () => {
    let t: TestApp;
    let vaultApp: FastifyInstance;

    before(async () => {
      t = await startTestApp(engine);
      vaultApp = await vaultAppWithLowIpLimit(t);
    });
    after(async () => {
      await vaultApp.close();
      await t.close();
    });

    const tokenizeFrom = async (ip: string) => {
      const { ticket } = await createCardIntent(t);
      const key = await currentKey(vaultApp);
      return postTokenize(vaultApp, { ticket, keyId: key.keyId, encryptedCard: await encryptCard(VISA, key.jwk, ticket) }, ip);
    };

    test('the 6th attempt from one IP within a minute is 429, across different tickets; the next minute it is allowed again', async () => {
      const ip = '203.0.113.7';
      for (let i = 0; i < 5; i++) {
        const res = await tokenizeFrom(ip);
        assert.equal(res.statusCode, 201, `attempt ${i + 1}: ${res.body}`);
      }
      const limited = await tokenizeFrom(ip);
      assertError(limited, 429, 'RATE_LIMITED');
      const retryAfter = Number(limited.headers['retry-after']);
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${limited.headers['retry-after']}`);
      // Limited attempts do not reach the card: no token was made for them.
      assert.equal((await t.db.db.selectFrom('vault.tokens').select('id').execute()).length, 5);

      // Another address has its own budget.
      assert.equal((await tokenizeFrom('198.51.100.20')).statusCode, 201);

      t.clock.advance(retryAfter * 1000 - 1);
      assertError(await tokenizeFrom(ip), 429, 'RATE_LIMITED');
      t.clock.advance(1);
      const again = await tokenizeFrom(ip);
      assert.equal(again.statusCode, 201, again.body);
    });
  });

  describe(`vault key cache (${engine})`, () => {
    let t: TestApp;
    let a: ReturnType<typeof buildVault>;
    let b: ReturnType<typeof buildVault>;

    before(async () => {
      t = await startTestApp(engine);
      // Two vault processes on one database and one master key: b rotates and retires, a tokenizes.
      const masterKey = randomBytes(32);
      const vaultOn = () =>
        buildVault({ db: t.db.db, clock: t.clock, newId, acquirer: undefined, masterKey, internalKey: t.deps.internalKey, attemptsPerIpPerMinute: 5, intentsPerCardPerHour: 10 });
      a = vaultOn();
      b = vaultOn();
    });
    after(() => t.close());

    test(`a lookup is reused for ${KEY_CACHE_MS} ms; a key another process rotates in is found at once, and one it retires is refused at once`, async () => {
      const k1 = await b.keys.rotate();
      assert.ok(await a.keys.privateKey(k1), 'an id not in the cache is looked up');
      // Reused without asking the database for KEY_CACHE_MS (the row is removed behind its back to see it).
      await t.db.db.deleteFrom('vault.keys').where('key_id', '=', k1).execute();
      t.clock.advance(KEY_CACHE_MS - 1);
      assert.ok(await a.keys.privateKey(k1));
      t.clock.advance(1);
      assert.equal(await a.keys.privateKey(k1), undefined, 'asked again once the lookup is KEY_CACHE_MS old');

      const k2 = await b.keys.rotate();
      assert.ok(await a.keys.privateKey(k2));
      const k3 = await b.keys.rotate(); // supersedes k2 now
      assert.ok(await a.keys.privateKey(k3), 'the new current key, at once');
      assert.ok(await a.keys.privateKey(k2), 'the previous key during the overlap');
      t.clock.advance(KEY_OVERLAP_MS - 1000);
      assert.ok(await a.keys.privateKey(k2), 'still before the overlap ends (a fresh lookup)');
      t.clock.advance(1000);
      // Retirable now: b retires it, and a refuses it although its last lookup is younger than KEY_CACHE_MS.
      assert.ok((await b.keys.retire()).includes(k2));
      assert.equal(await a.keys.privateKey(k2), undefined);
      assert.ok(await a.keys.privateKey(k3));
    });
  });

  describe(`vault attempt counters in one statement (${engine})`, () => {
    let t: TestApp;
    let vaultApp: FastifyInstance;

    before(async () => {
      t = await startTestApp(engine);
      vaultApp = await vaultAppWithLowIpLimit(t);
    });
    after(async () => {
      await vaultApp.close();
      await t.close();
    });

    const attemptOn = async (ticket: string, ip: string) => {
      const key = await currentKey(vaultApp);
      return postTokenize(vaultApp, { ticket, keyId: key.keyId, encryptedCard: await encryptCard(VISA, key.jwk, ticket) }, ip);
    };

    test('invalid tickets count against the address; attempts refused for their address do not count against their ticket', async () => {
      const ip = '203.0.113.50';
      for (let i = 0; i < 5; i++) assertError(await attemptOn('not-a-ticket', ip), 400, 'VALIDATION_ERROR', 'ticket', { exactly: true });
      const { ticket, id } = await createCardIntent(t);
      // The address is over its limit: 429 for the address, whatever the ticket.
      for (let i = 0; i < 3; i++) assertError(await attemptOn(ticket, ip), 429, 'RATE_LIMITED');
      assertError(await attemptOn('not-a-ticket', ip), 429, 'RATE_LIMITED');
      const counters = await t.db.db.selectFrom('vault.attempts').select(['scope', 'key', 'count']).execute();
      assert.deepEqual(counters.filter((c) => c.key === id), [], 'no attempt counted against the ticket');
      assert.deepEqual(counters.filter((c) => c.key === ip).map((c) => [c.scope, c.count]), [['ip', 9]]);

      // From another address, the ticket still has all its attempts, then 429 with Retry-After until it expires.
      for (let i = 0; i < MAX_ATTEMPTS_PER_TICKET; i++) assert.equal((await attemptOn(ticket, '198.51.100.50')).statusCode, 201, `attempt ${i + 1}`);
      const limited = await attemptOn(ticket, '198.51.100.51');
      assertError(limited, 429, 'RATE_LIMITED');
      const retryAfter = Number(limited.headers['retry-after']);
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= INTENT_LIFETIME_MS / 1000, `Retry-After: ${limited.headers['retry-after']}`);
    });
  });

  describe(`vault per-card velocity (${engine})`, () => {
    let t: TestApp;

    before(async () => {
      t = await startTestApp(engine, { env: { VAULT_INTENTS_PER_CARD_PER_HOUR: '3' } });
    });
    after(() => t.close());

    const tokenizeOn = async (card: Card, ticket?: string) => {
      ticket ??= (await createCardIntent(t)).ticket;
      const key = await currentKey(t.vaultApp);
      return postTokenize(t.vaultApp, { ticket, keyId: key.keyId, encryptedCard: await encryptCard(card, key.jwk, ticket) });
    };

    test('one card on more than 3 intents within the hour is 429 RATE_LIMITED with Retry-After; other cards are not affected; the next hour it is allowed', async () => {
      t.clock.set(new Date('2026-11-21T13:00:00.000Z'));
      const first = await createCardIntent(t);
      assert.equal((await tokenizeOn(VISA, first.ticket)).statusCode, 201);
      // A retry on an intent already counted is not another intent.
      assert.equal((await tokenizeOn(VISA, first.ticket)).statusCode, 201);
      for (let i = 2; i <= 3; i++) assert.equal((await tokenizeOn(VISA)).statusCode, 201, `intent ${i}`);
      t.clock.advance(15 * 60_000);
      const limited = await tokenizeOn(VISA);
      assertError(limited, 429, 'RATE_LIMITED');
      assert.equal(limited.headers['retry-after'], String(45 * 60), 'until the hour ends');
      assert.ok(!limited.body.includes('4111'), 'no card digits in the error');
      // Spaces in the number are the same card.
      assertError(await tokenizeOn({ ...VISA, number: '4111 1111 1111 1111' }), 429, 'RATE_LIMITED');
      assert.equal((await tokenizeOn({ ...VISA, number: '5555555555554444' })).statusCode, 201, 'another card');
      // The counter holds a keyed fingerprint, never the number.
      const rows = await t.db.db.selectFrom('vault.card_intents').selectAll().execute();
      assert.ok(rows.length > 0 && rows.every((r) => /^[0-9a-f]{64}$/.test(r.fingerprint) && !r.fingerprint.includes('4111111111111111')));

      t.clock.advance(45 * 60_000);
      assert.equal((await tokenizeOn(VISA)).statusCode, 201, 'a new hour');
    });

    test('the per-address default lets a carrier-grade NAT through: 60 buyers on one address in a minute', async () => {
      const natted = await startTestApp(engine, { env: { VAULT_ATTEMPTS_PER_IP_PER_MINUTE: '60' } });
      try {
        const key = await currentKey(natted.vaultApp);
        const statuses: number[] = [];
        for (let i = 0; i < 61; i++) {
          const { ticket } = await createCardIntent(natted);
          const res = await postTokenize(natted.vaultApp, { ticket, keyId: key.keyId, encryptedCard: await encryptCard(VISA, key.jwk, ticket) }, '198.51.100.1');
          statuses.push(res.statusCode);
        }
        assert.deepEqual(statuses.slice(0, 60), Array(60).fill(201));
        assert.equal(statuses[60], 429);
      } finally {
        await natted.close();
      }
    });
  });
}
