/**
 * An unknown card outcome is resolved, never guessed (issue 9, defect 2):
 * - `acquirer_charges.reversed_at`: the simulated acquirer's record of a
 *   reversal (desfazimento) of an approval that came after we declared FAILED;
 * - `payment_intents.outcome_unknown_since`: set when a card intent is
 *   recorded FAILED without knowing whether the acquirer charged (the vault
 *   did not answer in time); the worker resolves it from the acquirer's
 *   record (reverses a late approval) and clears it.
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    ALTER TABLE acquirer_charges ADD COLUMN reversed_at timestamptz;
    ALTER TABLE payment_intents ADD COLUMN outcome_unknown_since timestamptz;
    CREATE INDEX payment_intents_outcome_unknown ON payment_intents (outcome_unknown_since) WHERE outcome_unknown_since IS NOT NULL;
    `,
  );
}
