/** All SQL on the vault's tables (schema "vault": keys, tokens, attempts, used JWEs, card intents, closed intents). The executor is always the first parameter. */
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

/** A usable key's sealed private half and when it was superseded (null while current); undefined when unknown or retired. */
export async function usableKey(ex: Ex, keyId: string): Promise<{ private_sealed: string; superseded_at: Date | null } | undefined> {
  return ex.selectFrom('vault.keys').select(['private_sealed', 'superseded_at']).where('key_id', '=', keyId).executeTakeFirst();
}

// --- tokens

/** The token with this hash, locked: spending it is decided under the lock. */
export async function lockToken(ex: Ex, tokenHash: string): Promise<TokenRow | undefined> {
  return ex.selectFrom('vault.tokens').selectAll().where('token_hash', '=', tokenHash).forUpdate().executeTakeFirst();
}

/**
 * Spends a token and erases its card and CVV in the same statement, with the
 * card data of the intent's other tokens, and notes the intent closed
 * (closed-intents.ts): from this commit the card lives only in the spending
 * call's memory, nothing reads a spent token's card (a second call finds it
 * spent: an interrupted authorization, resolved by the intent id), nor another
 * token of an intent whose authorization began, and tokenize refuses the
 * intent's ticket. A sibling locked by another call is skipped: the sweep erases it.
 */
export async function spendToken(ex: Ex, token: Pick<TokenRow, 'id' | 'intent_id' | 'expires_at'>, at: Date): Promise<void> {
  await sql`
    WITH closed AS (
      INSERT INTO vault.closed_intents (intent_id, expires_at, closed_at) VALUES (${token.intent_id}, ${token.expires_at}, ${at})
      ON CONFLICT (intent_id) DO NOTHING
    )
    UPDATE vault.tokens SET used_at = CASE WHEN id = ${token.id} THEN ${at}::timestamptz ELSE used_at END, card_sealed = NULL, cvv_sealed = NULL
     WHERE id = ${token.id}
        OR id IN (SELECT id FROM vault.tokens WHERE intent_id = ${token.intent_id} AND card_sealed IS NOT NULL FOR UPDATE SKIP LOCKED)`.execute(ex);
}

/** Erases the card data of an intent's tokens (its outcome is known: nothing will be charged); one locked by a call in progress is skipped. */
export async function eraseCardsOfIntent(ex: Ex, intentId: string): Promise<void> {
  await ex
    .updateTable('vault.tokens')
    .set({ card_sealed: null, cvv_sealed: null })
    .where('id', 'in', (eb) => eb.selectFrom('vault.tokens').select('id').where('intent_id', '=', intentId).where('card_sealed', 'is not', null).forUpdate().skipLocked())
    .execute();
}

/** A token whose card data is due for erasure, as the sweep reads it. */
type DueToken = Pick<TokenRow, 'id' | 'card_sealed' | 'fingerprint'>;

/**
 * Up to `limit` tokens still holding a card that is no longer needed,
 * locked (a token being spent is skipped): spent (left by versions that kept
 * the card), expired with its intent, or of an intent the vault knows is
 * closed (closed-intents.ts).
 */
export async function lockTokensDue(ex: Ex, now: Date, limit: number): Promise<DueToken[]> {
  const { rows } = await sql<DueToken>`
    SELECT t.id, t.card_sealed, t.fingerprint FROM vault.tokens t
     WHERE t.card_sealed IS NOT NULL
       AND (t.used_at IS NOT NULL OR t.expires_at <= ${now} OR EXISTS (SELECT 1 FROM vault.closed_intents c WHERE c.intent_id = t.intent_id))
     LIMIT ${limit}
       FOR UPDATE OF t SKIP LOCKED`.execute(ex);
  return rows;
}

/** Keeps the fingerprint of a token stored before tokens had one (migration 014). */
export async function setFingerprint(ex: Ex, id: string, fingerprint: string): Promise<void> {
  await ex.updateTable('vault.tokens').set({ fingerprint }).where('id', '=', id).where('fingerprint', 'is', null).execute();
}

/** Erases the card and CVV of these tokens; brand, last 4, expiry and fingerprint stay. */
export async function eraseCards(ex: Ex, ids: string[]): Promise<void> {
  if (ids.length > 0) await ex.updateTable('vault.tokens').set({ card_sealed: null, cvv_sealed: null }).where('id', 'in', ids).execute();
}

// --- attempt counters

export interface AttemptCounts {
  /** The address's attempts in its window, this one included. */
  ip: number;
  /** The ticket's attempts, this one included; undefined when no ticket was given or the address was over its limit (not counted then). */
  ticket: number | undefined;
  /** Whether the ticket's intent is closed (closed-intents.ts); false without a ticket. */
  intentClosed: boolean;
}

/**
 * Adds one attempt to the address's counter of `ipWindowStart` and, when a
 * ticket is given and the address is still within `ipLimit`, one to the
 * ticket's counter of `ticketWindowStart`; answers both new counts and, with
 * a ticket, whether its intent is closed. One statement (tokenize's hot
 * path), shared by every vault process: the ticket's insert reads the
 * address's RETURNING, so an attempt refused for its address does not count
 * against its ticket, as when they were two statements.
 */
export async function countAttempts(
  ex: Ex,
  ip: { key: string; windowStart: Date; limit: number },
  ticket: { key: string; windowStart: Date; intentId: string } | undefined,
): Promise<AttemptCounts> {
  const { rows } = await sql<{ attempts_ip: number; attempts_ticket: number | null; intent_closed: boolean }>`
    WITH ip AS (
      INSERT INTO vault.attempts (scope, key, window_start, count) VALUES ('ip', ${ip.key}, ${ip.windowStart}, 1)
      ON CONFLICT (scope, key, window_start) DO UPDATE SET count = vault.attempts.count + 1
      RETURNING count
    ), ticket AS (
      INSERT INTO vault.attempts (scope, key, window_start, count)
      SELECT 'ticket', ${ticket?.key ?? null}::text, ${ticket?.windowStart ?? null}::timestamptz, 1 FROM ip
      WHERE ${ticket !== undefined}::boolean AND ip.count <= ${ip.limit}::int
      ON CONFLICT (scope, key, window_start) DO UPDATE SET count = vault.attempts.count + 1
      RETURNING count
    )
    SELECT ip.count AS attempts_ip, (SELECT count FROM ticket) AS attempts_ticket,
           EXISTS (SELECT 1 FROM vault.closed_intents WHERE intent_id = ${ticket?.intentId ?? null}::text) AS intent_closed
      FROM ip`.execute(ex);
  const row = rows[0]!;
  return { ip: row.attempts_ip, ticket: row.attempts_ticket ?? undefined, intentClosed: row.intent_closed };
}

export async function deleteAttemptsBefore(ex: Ex, before: Date): Promise<void> {
  await ex.deleteFrom('vault.attempts').where('window_start', '<', before).execute();
}

// --- replay and per-card velocity (migration 006)

export async function deleteUsedJwesExpiredBy(ex: Ex, now: Date): Promise<void> {
  await ex.deleteFrom('vault.used_jwes').where('expires_at', '<=', now).execute();
}

export interface StoreCardAnswer {
  /** Distinct intents the card was tried on in its window, this one included. */
  intentsForCard: number;
  /** Whether the token was stored; false when the card was over `intentsPerCard` or the JWE was already recorded. */
  stored: boolean;
}

/**
 * Tokenize's last step in one statement (one round trip, its own
 * transaction): notes that the card `fingerprint` was tried on the token's
 * intent in this window and counts the distinct intents it was tried on
 * there; within `intentsPerCard`, records the JWE's digest and, when the
 * digest was new (not a replay), inserts the token. The count cannot see the
 * row its own CTE inserts, so a newly noted intent is added to it. The note
 * is kept whatever the answer, as when the count was its own statement; the
 * digest and the token are written together or not at all.
 */
export async function storeCard(
  ex: Ex,
  card: { fingerprint: string; windowStart: Date; intentsPerCard: number },
  jwe: { digest: string; expiresAt: Date },
  token: Insertable<VaultTokensTable>,
): Promise<StoreCardAnswer> {
  const { rows } = await sql<{ n: string; stored: boolean }>`
    WITH noted AS (
      INSERT INTO vault.card_intents (fingerprint, window_start, intent_id) VALUES (${card.fingerprint}, ${card.windowStart}, ${token.intent_id})
      ON CONFLICT DO NOTHING
      RETURNING 1
    ), counted AS (
      SELECT (SELECT count(*) FROM vault.card_intents WHERE fingerprint = ${card.fingerprint} AND window_start = ${card.windowStart})
           + (SELECT count(*) FROM noted) AS n
    ), used AS (
      INSERT INTO vault.used_jwes (digest, expires_at)
      SELECT ${jwe.digest}::text, ${jwe.expiresAt}::timestamptz FROM counted WHERE counted.n <= ${card.intentsPerCard}::int
      ON CONFLICT (digest) DO NOTHING
      RETURNING 1
    ), stored AS (
      INSERT INTO vault.tokens (id, token_hash, intent_id, company_id, brand, last4, exp_month, exp_year, card_sealed, cvv_sealed, fingerprint, expires_at, used_at, created_at)
      SELECT ${token.id}::text, ${token.token_hash}::text, ${token.intent_id}::text, ${token.company_id}::text, ${token.brand}::text, ${token.last4}::text,
             ${token.exp_month}::int, ${token.exp_year}::int, ${token.card_sealed ?? null}::text, ${token.cvv_sealed ?? null}::text, ${card.fingerprint}::text,
             ${token.expires_at}::timestamptz, ${token.used_at ?? null}::timestamptz, ${token.created_at}::timestamptz
      FROM used
      RETURNING 1
    )
    SELECT counted.n, EXISTS (SELECT 1 FROM stored) AS stored FROM counted`.execute(ex);
  const row = rows[0]!;
  return { intentsForCard: Number(row.n), stored: row.stored };
}

// --- closed intents (closed-intents.ts)

/** Notes these intents closed; one already noted keeps the later of the two expiries. */
export async function recordClosedIntents(ex: Ex, intents: readonly { intent_id: string; expires_at: Date }[], at: Date): Promise<void> {
  if (intents.length === 0) return;
  await ex
    .insertInto('vault.closed_intents')
    .values(intents.map((i) => ({ ...i, closed_at: at })))
    .onConflict((oc) => oc.column('intent_id').doUpdateSet({ expires_at: sql`GREATEST(vault.closed_intents.expires_at, excluded.expires_at)` }))
    .execute();
}

/** Forgets the closed intents whose tickets have all expired. */
export async function deleteClosedIntentsExpiredBy(ex: Ex, now: Date): Promise<void> {
  await ex.deleteFrom('vault.closed_intents').where('expires_at', '<=', now).execute();
}

export async function deleteCardIntentsBefore(ex: Ex, before: Date): Promise<void> {
  await ex.deleteFrom('vault.card_intents').where('window_start', '<', before).execute();
}
