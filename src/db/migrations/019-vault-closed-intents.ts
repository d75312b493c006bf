/**
 * The vault's boundary: the vault no longer reads `payment_intents`.
 * - vault.closed_intents: the card intents the vault knows are over (their
 *   token spent by an authorization, or the API's notice that they were
 *   confirmed, failed or canceled), until the intent's expiry, after which its
 *   tickets and tokens have expired anyway. Tokenize refuses such an intent's
 *   ticket and the vault's sweep erases the cards of its tokens.
 * - payment_intents.vault_told_at: when the vault acknowledged that this card
 *   intent is over; NULL while it has not been told. The partial index holds
 *   only the card intents still to tell (a Pix intent never enters it), which
 *   the worker sends to the vault. Intents past their expiry need no notice
 *   (their tickets and tokens have expired): they are marked told here.
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    CREATE TABLE vault.closed_intents (
      intent_id text PRIMARY KEY,
      expires_at timestamptz NOT NULL,
      closed_at timestamptz NOT NULL
    );
    CREATE INDEX vault_closed_intents_expiry ON vault.closed_intents (expires_at);

    ALTER TABLE payment_intents ADD COLUMN vault_told_at timestamptz;
    UPDATE payment_intents SET vault_told_at = updated_at
     WHERE payment_method = 'CREDIT_CARD' AND status IN ('CONFIRMED', 'FAILED', 'CANCELED') AND expires_at <= now();
    CREATE INDEX payment_intents_vault_untold ON payment_intents (updated_at)
      WHERE vault_told_at IS NULL AND payment_method = 'CREDIT_CARD' AND status IN ('CONFIRMED', 'FAILED', 'CANCELED');
  `,
  );
}
