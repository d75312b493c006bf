/**
 * Two card-testing and replay defences of the vault (issue 9, defects 7 and 9):
 * - vault.used_jwes: the digest of every encrypted card the vault accepted,
 *   unique, so a captured JWE is tokenized once; kept until its ticket
 *   expires (after that the JWE's bound ticket is refused anyway).
 * - vault.card_intents: which intents a card (by its keyed fingerprint, never
 *   the number) was tokenized for in each hour, so the vault can refuse a card
 *   tried across too many intents; one row per (card, hour, intent) so
 *   retries on one intent count once.
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    CREATE TABLE vault.used_jwes (
      digest text PRIMARY KEY,
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX vault_used_jwes_expiry ON vault.used_jwes (expires_at);

    CREATE TABLE vault.card_intents (
      fingerprint text NOT NULL,
      window_start timestamptz NOT NULL,
      intent_id text NOT NULL,
      PRIMARY KEY (fingerprint, window_start, intent_id)
    );
    CREATE INDEX vault_card_intents_window ON vault.card_intents (window_start);
  `,
  );
}
