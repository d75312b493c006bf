/**
 * Keys derived from VAULT_MASTER_KEY with HKDF-SHA256, one per purpose, so a
 * leak of one derived key does not expose the other kind of data.
 */
import { hkdfSync } from 'node:crypto';
import { aesGcmSealer, type Sealer } from '../../lib/aes-gcm.js';

export interface VaultSealers {
  /** Seals the private halves of the vault's RSA keys. */
  keys: Sealer;
  /** Seals card data (number, holder, expiry; the CVV separately). */
  cards: Sealer;
}

export function vaultSealers(masterKey: Buffer): VaultSealers {
  const derive = (purpose: string) => aesGcmSealer(Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `svc-vault/${purpose}`, 32)));
  return { keys: derive('rsa-private-keys'), cards: derive('card-data') };
}
