/**
 * A card's fingerprint: HMAC-SHA256 of its number under a key derived from
 * VAULT_MASTER_KEY. It lets the vault count one card across intents (the
 * per-card velocity limit against card testing) without storing the number:
 * without the key, the fingerprint cannot be brute-forced back to a PAN.
 */
import { createHmac, hkdfSync } from 'node:crypto';

export type CardFingerprinter = (cardNumber: string) => string;

export function cardFingerprinter(masterKey: Buffer): CardFingerprinter {
  const key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'svc-vault/card-fingerprint', 32));
  return (cardNumber) => createHmac('sha256', key).update(cardNumber).digest('hex');
}
