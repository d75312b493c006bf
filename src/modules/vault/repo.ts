/** All SQL on the vault's tables (schema "vault": keys, tokens, attempts, used JWEs, card intents). The executor is always the first parameter. */
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database, VaultKeysTable, VaultTokensTable } from '../../db/types.js';

type Ex = Kysely<Database>;
export type TokenRow = Selectable<VaultTokensTable>;

// --- keys

/** Every usable key: current first (superseded_at NULL), then the most recently superseded. */
export async function listKeys(ex: Ex) {
  // A rotation in the same millisecond as the key it replaces (same created_at) must not put the old key first.
  return ex
    .selectFrom('vault.keys')
    .select(['key_id', 'public_jwk', 'superseded_at', 'created_at'])
    .orderBy('superseded_at', (ob) => ob.desc().nullsFirst())
    .orderBy('created_at', 'desc')
    .orderBy('key_id', 'desc')
    .execute();
}

export async function hasCurrentKey(ex: Ex): Promise<boolean> {
  return (await ex.selectFrom('vault.keys').select('key_id').where('superseded_at', 'is', null).executeTakeFirst()) !== undefined;
}

/** Supersedes the current key and inserts the new one; run both in one transaction. */
export async function replaceCurrentKey(ex: Ex, key: Insertable<VaultKeysTable>, at: Date): Promise<void> {
  await ex.updateTable('vault.keys').set({ superseded_at: at }).where('superseded_at', 'is', null).execute();
  await ex.insertInto('vault.keys').values(key).execute();
}

/** Deletes keys superseded at or before `cutoff`; returns their ids. */
export async function deleteKeysSupersededBefore(ex: Ex, cutoff: Date): Promise<string[]> {
  const rows = await ex.deleteFrom('vault.keys').where('superseded_at', '<=', cutoff).returning('key_id').execute();
  return rows.map((r) => r.key_id);
}

export async function sealedPrivateKey(ex: Ex, keyId: string): Promise<string | undefined> {
  return (await ex.selectFrom('vault.keys').select('private_sealed').where('key_id', '=', keyId).executeTakeFirst())?.private_sealed;
}

// --- tokens

export async function insertToken(ex: Ex, row: Insertable<VaultTokensTable>): Promise<void> {
  await ex.insertInto('vault.tokens').values(row).execute();
}

/** The token with this hash, locked: spending it is decided under the lock. */
export async function lockToken(ex: Ex, tokenHash: string): Promise<TokenRow | undefined> {
  return ex.selectFrom('vault.tokens').selectAll().where('token_hash', '=', tokenHash).forUpdate().executeTakeFirst();
}

/** Spends a token and erases its CVV in the same statement: a spent token never keeps a CVV. */
export async function spendToken(ex: Ex, id: string, at: Date): Promise<void> {
  await ex.updateTable('vault.tokens').set({ used_at: at, cvv_sealed: null }).where('id', '=', id).execute();
}

/**
 * Erases the CVVs of an intent's tokens, in the caller's transaction (the
 * commit that records the intent's outcome). A token locked by a vault call
 * in progress is skipped: that call spends it and erases its CVV itself, and
 * waiting for a paused vault would hold the intent's lock.
 */
export async function eraseCvvsOfIntent(ex: Ex, intentId: string): Promise<void> {
  await ex
    .updateTable('vault.tokens')
    .set({ cvv_sealed: null })
    .where('id', 'in', (eb) => eb.selectFrom('vault.tokens').select('id').where('intent_id', '=', intentId).where('cvv_sealed', 'is not', null).forUpdate().skipLocked())
    .execute();
}

/** Erases the CVV of every token whose intent expired; returns how many. */
export async function eraseExpiredCvvs(ex: Ex, now: Date): Promise<number> {
  const erased = await ex.updateTable('vault.tokens').set({ cvv_sealed: null }).where('cvv_sealed', 'is not', null).where('expires_at', '<=', now).executeTakeFirst();
  return Number(erased.numUpdatedRows);
}

// --- attempt counters

/** Adds one attempt to the counter of (scope, key, window) and returns the new count: one statement, shared by every vault process. */
export async function countAttempt(ex: Ex, scope: string, key: string, windowStart: Date): Promise<number> {
  const row = await ex
    .insertInto('vault.attempts')
    .values({ scope, key, window_start: windowStart, count: 1 })
    .onConflict((oc) => oc.columns(['scope', 'key', 'window_start']).doUpdateSet((eb) => ({ count: eb('vault.attempts.count', '+', 1) })))
    .returning('count')
    .executeTakeFirstOrThrow();
  return row.count;
}

export async function deleteAttemptsBefore(ex: Ex, before: Date): Promise<void> {
  await ex.deleteFrom('vault.attempts').where('window_start', '<', before).execute();
}

// --- replay and per-card velocity (migration 006)

/** Records an accepted JWE's digest; false when it was already recorded (a replay). Run in the transaction that stores the token. */
export async function recordUsedJwe(ex: Ex, digest: string, expiresAt: Date): Promise<boolean> {
  const row = await ex.insertInto('vault.used_jwes').values({ digest, expires_at: expiresAt }).onConflict((oc) => oc.column('digest').doNothing()).returning('digest').executeTakeFirst();
  return row !== undefined;
}

export async function deleteUsedJwesExpiredBy(ex: Ex, now: Date): Promise<void> {
  await ex.deleteFrom('vault.used_jwes').where('expires_at', '<=', now).execute();
}

/**
 * Notes that the card `fingerprint` was tried on `intentId` in this window, and
 * answers how many distinct intents it was tried on there, in one statement
 * (tokenize's hot path): the count cannot see the row its own CTE inserts, so
 * a newly noted intent is added to it.
 */
export async function countCardIntent(ex: Ex, fingerprint: string, windowStart: Date, intentId: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    WITH noted AS (
      INSERT INTO vault.card_intents (fingerprint, window_start, intent_id) VALUES (${fingerprint}, ${windowStart}, ${intentId})
      ON CONFLICT DO NOTHING
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM vault.card_intents WHERE fingerprint = ${fingerprint} AND window_start = ${windowStart})
         + (SELECT count(*) FROM noted) AS n`.execute(ex);
  return Number(rows[0]!.n);
}

export async function deleteCardIntentsBefore(ex: Ex, before: Date): Promise<void> {
  await ex.deleteFrom('vault.card_intents').where('window_start', '<', before).execute();
}
