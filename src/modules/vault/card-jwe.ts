/**
 * Opening the encrypted card of POST /tokenize. The JWE is bound to its
 * ticket: the hosted fields put the ticket in the protected header, which
 * AES-GCM authenticates (it is the AAD), so a captured JWE cannot be moved to
 * another intent's ticket. Its digest (of the decoded IV and tag, which no one
 * without the content key can change) lets the vault accept it once.
 *
 * The one JWE this opens, compact RSA-OAEP-256 with A256GCM (RFC 7516), is
 * decrypted with node:crypto rather than jose: jose runs it through WebCrypto,
 * which cost 0.51 ms of CPU per card against 0.31 ms here (2,000 cards, Node 22,
 * this project's 2-core machine); RSA is most of tokenize's CPU. jose still
 * makes the keys (keys.ts) and the hosted fields still encrypt with it;
 * card-jwe.test.ts opens JWEs that jose made and refuses what jose refuses.
 */
import { constants, createDecipheriv, createHash, privateDecrypt, randomBytes, type KeyObject } from 'node:crypto';
import { validationError, type DomainError } from '../../lib/domain-error.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import { compactParts, decodeJsonObject } from './compact-serialization.js';

export interface OpenedCard {
  plaintext: string;
  /** Identifies this encryption of the card; recorded when the card is tokenized. */
  digest: string;
}

const CEK_BYTES = 32; // A256GCM
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The digest of a compact JWE's IV and tag, decoded (so another base64url spelling of the same JWE is the same digest). */
export function jweDigest(jwe: string): string {
  const [, , iv = '', , tag = ''] = jwe.split('.');
  return digestOf(Buffer.from(iv, 'base64url'), Buffer.from(tag, 'base64url'));
}

const digestOf = (iv: Buffer, tag: Buffer): string => createHash('sha256').update(iv).update(tag).digest('hex');

const undecryptable = (): DomainError => validationError('encryptedCard', PROBLEMS.undecryptable);

/** The protected header when it is a JSON object naming exactly our algorithms (no compression, no critical extensions); else undefined. */
function protectedHeader(encoded: string): Record<string, unknown> | undefined {
  const h = decodeJsonObject(encoded);
  return h?.alg === 'RSA-OAEP-256' && h.enc === 'A256GCM' && h.zip === undefined && h.crit === undefined ? h : undefined;
}

/**
 * The content key. A key that does not unwrap is replaced by a random one, so
 * every bad JWE fails at the same later step (the GCM tag) with the same
 * answer: RFC 7516 section 11.5, against telling RSA padding errors apart.
 */
function contentKey(privateKey: KeyObject, wrapped: Buffer): Buffer {
  try {
    const cek = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, wrapped);
    if (cek.length === CEK_BYTES) return cek;
  } catch {
    // falls through to a random key
  }
  return randomBytes(CEK_BYTES);
}

export function openCard(jwe: string, privateKey: KeyObject, keyId: string, ticket: string): OpenedCard | DomainError {
  const parts = compactParts(jwe, 5);
  if (!parts) return undecryptable();
  const [encodedHeader = '', wrappedKey = '', ivText = '', cipherText = '', tagText = ''] = parts;
  const header = protectedHeader(encodedHeader);
  const iv = Buffer.from(ivText, 'base64url');
  const tag = Buffer.from(tagText, 'base64url');
  if (!header || iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return undecryptable();
  let plaintext: string;
  try {
    const decipher = createDecipheriv('aes-256-gcm', contentKey(privateKey, Buffer.from(wrappedKey, 'base64url')), iv, { authTagLength: TAG_BYTES });
    // The AAD is the protected header exactly as sent (its base64url text), so the ticket in it is authenticated.
    decipher.setAAD(Buffer.from(encodedHeader, 'ascii'));
    decipher.setAuthTag(tag);
    plaintext = Buffer.concat([decipher.update(Buffer.from(cipherText, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undecryptable();
  }
  // A kid that disagrees with keyId is refused like any undecryptable card (same answer, nothing learned).
  if (header.kid !== keyId) return undecryptable();
  // Checked after decryption, so the header compared is the authenticated one.
  if (header.ticket !== ticket) return validationError('encryptedCard', PROBLEMS.otherTicket);
  return { plaintext, digest: digestOf(iv, tag) };
}
