/**
 * Opening the encrypted card of POST /tokenize. The JWE is bound to its
 * ticket: the hosted fields put the ticket in the protected header, which
 * AES-GCM authenticates (it is the AAD), so a captured JWE cannot be moved to
 * another intent's ticket. Its digest (of the decoded IV and tag, which no one
 * without the content key can change) lets the vault accept it once.
 */
import { createHash } from 'node:crypto';
import { compactDecrypt, type CryptoKey } from 'jose';
import { validationError, type DomainError } from '../../lib/domain-error.js';

export interface OpenedCard {
  plaintext: string;
  /** Identifies this encryption of the card; recorded when the card is tokenized. */
  digest: string;
}

/** The digest of a compact JWE's IV and tag, decoded (so another base64url spelling of the same JWE is the same digest). */
export function jweDigest(jwe: string): string {
  const [, , iv = '', , tag = ''] = jwe.split('.');
  return createHash('sha256').update(Buffer.from(iv, 'base64url')).update(Buffer.from(tag, 'base64url')).digest('hex');
}

export async function openCard(jwe: string, privateKey: CryptoKey, keyId: string, ticket: string): Promise<OpenedCard | DomainError> {
  let plaintext: string;
  let header: Record<string, unknown>;
  try {
    const opened = await compactDecrypt(jwe, privateKey, {
      keyManagementAlgorithms: ['RSA-OAEP-256'],
      contentEncryptionAlgorithms: ['A256GCM'],
    });
    plaintext = new TextDecoder().decode(opened.plaintext);
    header = opened.protectedHeader;
  } catch {
    return validationError('encryptedCard', 'could not be decrypted with this key');
  }
  // A kid that disagrees with keyId is refused like any undecryptable card (same answer, nothing learned).
  if (header.kid !== keyId) return validationError('encryptedCard', 'could not be decrypted with this key');
  // Checked after decryption, so the header compared is the authenticated one.
  if (header.ticket !== ticket) return validationError('encryptedCard', 'was not encrypted for this ticket; encrypt the card again');
  return { plaintext, digest: jweDigest(jwe) };
}
