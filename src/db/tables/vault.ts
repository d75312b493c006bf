/**
 * Table types (vault) for Kysely: see ../types.ts.
 * The vault's schema ("vault"): its keys, tokens and the records that bound tokenization.
 */
import type { Timestamp, Json } from './columns.js';

export interface VaultKeysTable {
  key_id: string;
  public_jwk: Json<Record<string, unknown>>;
  /** The private JWK, sealed with a key derived from VAULT_MASTER_KEY. */
  private_sealed: string;
  created_at: Timestamp;
  /** Set when a newer key became current; the key still decrypts until retired. */
  superseded_at: Timestamp | null;
}

export interface VaultTokensTable {
  id: string;
  /** SHA-256 of the `vtk_` token; the token itself is not stored. */
  token_hash: string;
  intent_id: string;
  company_id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  /** Number, holder name and expiry, sealed with a key derived from VAULT_MASTER_KEY; NULL once erased (spent, or its intent closed). */
  card_sealed: string | null;
  /** The CVV, sealed separately; erased with the card. */
  cvv_sealed: string | null;
  /** The card's keyed HMAC fingerprint (card-fingerprint.ts), kept after the card is erased; NULL only on tokens stored before migration 014 until the sweep fills it. */
  fingerprint: string | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

/** Encrypted cards already tokenized (digest of IV and tag): each is accepted once. */
export interface VaultUsedJwesTable {
  digest: string;
  expires_at: Timestamp;
}

/** The card intents the vault knows are over, until their expiry (vault/closed-intents.ts). */
export interface VaultClosedIntentsTable {
  intent_id: string;
  expires_at: Timestamp;
  closed_at: Timestamp;
}

/** The intents a card (keyed fingerprint) was tokenized for, per hour window: the per-card velocity limit. */
export interface VaultCardIntentsTable {
  fingerprint: string;
  window_start: Timestamp;
  intent_id: string;
}

export interface VaultAttemptsTable {
  scope: string;
  key: string;
  window_start: Timestamp;
  count: number;
}
