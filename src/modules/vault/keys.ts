/**
 * The vault's encryption keys: RSA key pairs for RSA-OAEP-256 / A256GCM JWE.
 * The newest key is current (first in /keys, carried by each card intent);
 * after a rotation the previous key stays listed and decrypts until it is
 * retired, at least KEY_OVERLAP_MS after it was superseded, so a card
 * encrypted by a page loaded just before the rotation still tokenizes.
 *
 * Tokenize looks its key up on every call; the answer is kept for
 * KEY_CACHE_MS (a few seconds) so the hot path skips that query. A key id not
 * in the cache is looked up at once (a rotation by another process is seen by
 * the first card encrypted to the new key), and a superseded key is served
 * from the cache only until KEY_OVERLAP_MS after its supersession, the
 * earliest it can be retired: past that, each call asks the database again.
 */
import { createPrivateKey, type JsonWebKeyInput, type KeyObject } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import type { Db } from '../../db/database.js';
import type { Sealer } from '../../lib/aes-gcm.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import * as repo from './repo.js';

const KEY_ALG = 'RSA-OAEP-256';
const KEY_ENC = 'A256GCM';
export const KEY_OVERLAP_MS = 10 * 60_000;
/** How long a key lookup is reused (see above); far below KEY_OVERLAP_MS, so a rotation never outlives it. */
export const KEY_CACHE_MS = 5_000;

export interface PublicKeyView {
  keyId: string;
  alg: typeof KEY_ALG;
  enc: typeof KEY_ENC;
  current: boolean;
  jwk: { kty: 'RSA'; kid: string; alg: typeof KEY_ALG; use: 'enc'; n: string; e: string };
}

/** The public halves, current first; needs no master key (the API reads them for card intents). */
export async function listPublicKeys(db: Db): Promise<PublicKeyView[]> {
  const rows = await repo.listKeys(db);
  return rows.map((row) => ({
    keyId: row.key_id,
    alg: KEY_ALG,
    enc: KEY_ENC,
    current: row.superseded_at === null,
    jwk: row.public_jwk as PublicKeyView['jwk'],
  }));
}

export class VaultKeys {
  private readonly privateKeys = new Map<string, KeyObject>();
  /** Key id → until when (epoch ms) its last lookup found it usable. */
  private readonly checkedUntil = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly sealer: Sealer,
  ) {}

  /** Creates the first key if there is none (the vault's first start). */
  async ensureCurrent(): Promise<void> {
    if (!(await repo.hasCurrentKey(this.db))) await this.rotate();
  }

  /** A new current key; the previous current one is superseded but stays usable. Returns the new key id. */
  async rotate(): Promise<string> {
    const { publicKey, privateKey } = await generateKeyPair(KEY_ALG, { modulusLength: 2048, extractable: true });
    const keyId = `vk_${newId('key').slice(4)}`;
    const pub = await exportJWK(publicKey);
    const priv = await exportJWK(privateKey);
    const now = this.clock.now();
    const key = {
      key_id: keyId,
      public_jwk: JSON.stringify({ kty: 'RSA', kid: keyId, alg: KEY_ALG, use: 'enc', n: pub.n, e: pub.e }),
      private_sealed: this.sealer.seal(JSON.stringify(priv)),
      created_at: now,
      superseded_at: null,
    };
    await this.db.transaction().execute((trx) => repo.replaceCurrentKey(trx, key, now));
    return keyId;
  }

  /** Deletes keys superseded at least KEY_OVERLAP_MS ago; returns their ids. */
  async retire(): Promise<string[]> {
    const cutoff = new Date(this.clock.now().getTime() - KEY_OVERLAP_MS);
    const ids = await repo.deleteKeysSupersededBefore(this.db, cutoff);
    for (const id of ids) this.forget(id);
    return ids;
  }

  /** Every usable key, current first. */
  list(): Promise<PublicKeyView[]> {
    return listPublicKeys(this.db);
  }

  /**
   * The private key of a usable key id, or undefined (unknown or retired).
   * Imported once, then cached; whether the id is still usable is asked of
   * the database at most every KEY_CACHE_MS (see the top of this file).
   */
  async privateKey(keyId: string): Promise<KeyObject | undefined> {
    const now = this.clock.now().getTime();
    const cached = this.privateKeys.get(keyId);
    if (cached && now < (this.checkedUntil.get(keyId) ?? 0)) return cached;
    const row = await repo.usableKey(this.db, keyId);
    if (!row) {
      this.forget(keyId);
      return undefined;
    }
    let key = this.privateKeys.get(keyId);
    if (!key) {
      // A node:crypto key: card-jwe.ts decrypts with node:crypto (see there why not jose).
      key = createPrivateKey({ key: JSON.parse(this.sealer.open(row.private_sealed)) as JsonWebKeyInput['key'], format: 'jwk' });
      this.privateKeys.set(keyId, key);
    }
    // A superseded key may be retired from KEY_OVERLAP_MS after its supersession: not cached past that.
    const retirable = row.superseded_at === null ? Infinity : new Date(row.superseded_at).getTime() + KEY_OVERLAP_MS;
    this.checkedUntil.set(keyId, Math.min(now + KEY_CACHE_MS, retirable));
    return key;
  }

  private forget(keyId: string): void {
    this.privateKeys.delete(keyId);
    this.checkedUntil.delete(keyId);
  }
}
