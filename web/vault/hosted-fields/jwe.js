/*
 * Compact JWE (RFC 7516): RSA-OAEP-256 key wrap + A256GCM content, with Web
 * Crypto. Why a module: this is the encryption the vault opens with jose
 * (src/modules/vault), kept apart so tests run it against jose in a bare VM.
 */

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** base64url without padding (no btoa: also runs in a bare VM context). */
export function b64url(bytes) {
  let out = '';
  let i = 0;
  let n;
  for (; i + 2 < bytes.length; i += 3) {
    n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63] + B64[n & 63];
  }
  if (bytes.length - i === 1) {
    n = bytes[i] << 16;
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63];
  } else if (bytes.length - i === 2) {
    n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63];
  }
  return out;
}

function utf8(s) {
  return new TextEncoder().encode(s);
}

/**
 * Encrypts plaintext (a string) for the vault public key jwk and returns the
 * compact JWE header.encryptedKey.iv.ciphertext.tag. kid defaults to jwk.kid.
 * ticket, when given, goes into the protected header: AES-GCM authenticates
 * it, which binds the encrypted card to that ticket (the vault refuses it
 * with any other, so a captured JWE cannot pay another intent).
 * Fresh random 256-bit content key and 96-bit IV per call; the AAD is the
 * ASCII of the base64url protected header, as RFC 7516 requires.
 */
export async function buildJwe(jwk, plaintext, kid, ticket) {
  const c = globalThis.crypto;
  const subtle = c && c.subtle;
  if (!subtle) throw new Error('Web Crypto is unavailable (secure context required)');
  if (!jwk || jwk.kty !== 'RSA' || typeof jwk.n !== 'string' || typeof jwk.e !== 'string') {
    throw new TypeError('jwk must be an RSA public key');
  }
  if (jwk.alg && jwk.alg !== 'RSA-OAEP-256') throw new TypeError('jwk alg must be RSA-OAEP-256');
  // Refuse keys under 2048 bits (256 bytes of modulus, 342 base64url chars).
  if (jwk.n.length < 342) throw new TypeError('RSA key too small');
  kid = kid || jwk.kid;
  if (typeof kid !== 'string' || !kid) throw new TypeError('kid is required');
  if (ticket !== undefined && (typeof ticket !== 'string' || !ticket)) throw new TypeError('ticket must be a non-empty string');

  const fields = { alg: 'RSA-OAEP-256', enc: 'A256GCM', kid };
  if (ticket !== undefined) fields.ticket = ticket;
  const header = b64url(utf8(JSON.stringify(fields)));
  const cek = c.getRandomValues(new Uint8Array(32));
  const iv = c.getRandomValues(new Uint8Array(12));
  // Only the public members are imported, so a "use"/"key_ops" mismatch in
  // the published JWK cannot make the import fail.
  const pub = await subtle.importKey(
    'jwk',
    { kty: 'RSA', n: jwk.n, e: jwk.e, alg: 'RSA-OAEP-256', ext: true },
    { name: 'RSA-OAEP', hash: 'SHA-256' },
    false,
    ['encrypt'],
  );
  const wrapped = new Uint8Array(await subtle.encrypt({ name: 'RSA-OAEP' }, pub, cek));
  const aes = await subtle.importKey('raw', cek, { name: 'AES-GCM' }, false, ['encrypt']);
  cek.fill(0); // the raw content key is no longer needed in memory
  const sealed = await subtle.encrypt({ name: 'AES-GCM', iv, additionalData: utf8(header), tagLength: 128 }, aes, utf8(plaintext));
  const out = new Uint8Array(sealed); // Web Crypto appends the 16-byte tag
  const cut = out.length - 16;
  return [header, b64url(wrapped), b64url(iv), b64url(out.subarray(0, cut)), b64url(out.subarray(cut))].join('.');
}
