/**
 * Card data is kept only while it is needed (PCI DSS): a token keeps its
 * sealed card and CVV until it is spent, or until its intent expires or is
 * closed unspent; then both are erased, and what a seller and a dispute need
 * stays: brand, last 4 digits, expiry and the card's keyed fingerprint.
 * - `fingerprint`: the card's HMAC under a key derived from VAULT_MASTER_KEY
 *   (the one vault.card_intents counts by), written at tokenize; tokens
 *   stored before this migration get it from the vault's sweep, which opens
 *   their card once before erasing it.
 * - `card_sealed` may be NULL: erased.
 * - the sweep looks only at tokens still holding a card: a partial index on
 *   them replaces the CVV one (a CVV is never held without its card).
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    ALTER TABLE vault.tokens ADD COLUMN fingerprint text;
    ALTER TABLE vault.tokens ALTER COLUMN card_sealed DROP NOT NULL;
    DROP INDEX vault.vault_tokens_cvv_expiry;
    CREATE INDEX vault_tokens_holding_card ON vault.tokens (expires_at) WHERE card_sealed IS NOT NULL;
    `,
  );
}
