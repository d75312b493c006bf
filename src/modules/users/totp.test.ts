import assert from 'node:assert/strict';
import { test } from 'node:test';
import { base32Decode, base32Encode, matchingStep, otpauthUri, stepAt, totpCode } from './totp.js';

// RFC 6238 Appendix B: the seeds are ASCII "1234567890" repeated to the hash's key length; 8-digit codes.
const SEEDS: Record<string, Buffer> = {
  sha1: Buffer.from('12345678901234567890'),
  sha256: Buffer.from('12345678901234567890123456789012'),
  sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};
const VECTORS: [number, string, string][] = [
  [59, '94287082', 'sha1'],
  [59, '46119246', 'sha256'],
  [59, '90693936', 'sha512'],
  [1111111109, '07081804', 'sha1'],
  [1111111109, '68084774', 'sha256'],
  [1111111109, '25091201', 'sha512'],
  [1111111111, '14050471', 'sha1'],
  [1234567890, '89005924', 'sha1'],
  [2000000000, '69279037', 'sha1'],
  [20000000000, '65353130', 'sha1'],
  [20000000000, '77737706', 'sha256'],
  [20000000000, '47863826', 'sha512'],
];

test("RFC 6238's test vectors", () => {
  for (const [seconds, code, algorithm] of VECTORS) {
    assert.equal(totpCode(SEEDS[algorithm]!, stepAt(new Date(seconds * 1000)), 8, algorithm), code, `${algorithm} at ${seconds}`);
  }
  // The 6 digits apps show are the last 6 of the same truncation.
  assert.equal(totpCode(SEEDS.sha1!, stepAt(new Date(59_000))), '287082');
});

test('base32 round-trips and matches RFC 4648', () => {
  assert.equal(base32Encode(Buffer.from('foobar')), 'MZXW6YTBOI');
  assert.equal(base32Decode('MZXW6YTBOI').toString(), 'foobar');
  assert.equal(base32Decode('mzxw6ytboi======').toString(), 'foobar');
  const bytes = Buffer.from(Array.from({ length: 20 }, (_, i) => i * 13));
  assert.deepEqual(base32Decode(base32Encode(bytes)), bytes);
});

test('a code is accepted one step either side, never for a step already used, never malformed', () => {
  const secret = base32Encode(SEEDS.sha1!);
  const at = new Date(1111111109_000);
  const now = stepAt(at);
  for (const offset of [-1, 0, 1]) assert.equal(matchingStep(secret, totpCode(SEEDS.sha1!, now + offset), at, null), now + offset);
  assert.equal(matchingStep(secret, totpCode(SEEDS.sha1!, now + 2), at, null), undefined);
  assert.equal(matchingStep(secret, totpCode(SEEDS.sha1!, now - 2), at, null), undefined);
  assert.equal(matchingStep(secret, totpCode(SEEDS.sha1!, now), at, now), undefined, 'replayed');
  assert.equal(matchingStep(secret, '12345', at, null), undefined);
  assert.equal(matchingStep(secret, '1234567', at, null), undefined);
});

test('the otpauth URI names the issuer, the account and the secret', () => {
  assert.equal(
    otpauthUri('Painel', 'ana@loja.example', 'ABC'),
    'otpauth://totp/Painel:ana%40loja.example?secret=ABC&issuer=Painel&algorithm=SHA1&digits=6&period=30',
  );
});
