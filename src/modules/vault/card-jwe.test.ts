import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { CompactEncrypt, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { isDomainError } from '../../lib/domain-error.js';
import { jweDigest, openCard } from './card-jwe.js';

const CARD = JSON.stringify({ number: '4111111111111111', holderName: 'Maria', expMonth: 12, expYear: 2030, cvv: '123' });
const pair = await generateKeyPair('RSA-OAEP-256', { modulusLength: 2048, extractable: true });
const privateKey = createPrivateKey({ key: await exportJWK(pair.privateKey), format: 'jwk' });
const other = await generateKeyPair('RSA-OAEP-256', { modulusLength: 2048 });

/** A JWE as the hosted fields make it (jose in the browser). */
function encrypt(header: Record<string, unknown>, key: CryptoKey = pair.publicKey, text = CARD): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(text)).setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', ...header }).encrypt(key);
}

/** The field and message of a refusal, or 'opened'. */
function answer(jwe: string, ticket = 't1'): string {
  const opened = openCard(jwe, privateKey, 'k1', ticket);
  return isDomainError(opened) ? `${opened.details?.[0]?.field}: ${opened.message.en}` : 'opened';
}

test('opens a JWE that jose made, with its digest', async () => {
  const jwe = await encrypt({ kid: 'k1', ticket: 't1' });
  const opened = openCard(jwe, privateKey, 'k1', 't1');
  assert.ok(!isDomainError(opened));
  assert.equal(opened.plaintext, CARD);
  assert.equal(opened.digest, jweDigest(jwe));
});

test('refuses, naming encryptedCard, what does not decrypt with this key or is not our JWE', async () => {
  const undecryptable = /^encryptedCard: .*could not be decrypted/;
  const good = await encrypt({ kid: 'k1', ticket: 't1' });
  const [h, k, iv, c, tag] = good.split('.') as [string, string, string, string, string];
  const flip = (part: string) => Buffer.from(Buffer.from(part, 'base64url').map((b, i) => (i === 0 ? b ^ 1 : b))).toString('base64url');
  const cases = {
    'another key': await encrypt({ kid: 'k1', ticket: 't1' }, other.publicKey),
    'a kid that is not keyId': await encrypt({ kid: 'k2', ticket: 't1' }),
    'a changed wrapped key': [h, flip(k), iv, c, tag].join('.'),
    'a changed ciphertext': [h, k, iv, flip(c), tag].join('.'),
    'a changed tag': [h, k, iv, c, flip(tag)].join('.'),
    'a short IV': [h, k, iv.slice(0, 8), c, tag].join('.'),
    'a header changed after encryption': [Buffer.from(JSON.stringify({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: 'k1', ticket: 't2' })).toString('base64url'), k, iv, c, tag].join('.'),
    'another algorithm named': [Buffer.from(JSON.stringify({ alg: 'RSA-OAEP', enc: 'A256GCM', kid: 'k1', ticket: 't1' })).toString('base64url'), k, iv, c, tag].join('.'),
    'compression asked for': [Buffer.from(JSON.stringify({ alg: 'RSA-OAEP-256', enc: 'A256GCM', zip: 'DEF', kid: 'k1', ticket: 't1' })).toString('base64url'), k, iv, c, tag].join('.'),
    'four parts': [h, k, iv, c].join('.'),
    'characters outside base64url': [h, k, iv, `${c}+`, tag].join('.'),
    'a header that is not JSON': ['bm90IGpzb24', k, iv, c, tag].join('.'),
    garbage: 'not-a-jwe',
  };
  for (const [what, jwe] of Object.entries(cases)) assert.match(answer(jwe), undecryptable, what);
});

test('a JWE for another ticket is refused after decryption, naming encryptedCard', async () => {
  assert.match(answer(await encrypt({ kid: 'k1', ticket: 't1' }), 't2'), /^encryptedCard: .*was not encrypted for this ticket/);
  assert.match(answer(await encrypt({ kid: 'k1' })), /^encryptedCard: .*was not encrypted for this ticket/);
});
