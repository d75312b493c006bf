/**
 * Webhooks that back off like Svix (issue 28): a registration whose
 * deliveries have all failed for WEBHOOK_DISABLE_AFTER is disabled.
 * `failing_since` is the first failed attempt since the last success (NULL
 * while the receiver answers), `disabled_at` when it was disabled (NULL:
 * enabled). A disabled registration's deliveries wait as HELD, a state the
 * due index (WHERE state = 'PENDING') leaves out, so they cost the claim
 * nothing until the registration is enabled again. The `webhook.disabled`
 * event is about a registration, not a transaction: events.transaction_id
 * becomes nullable.
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    ALTER TABLE webhooks ADD COLUMN failing_since timestamptz;
    ALTER TABLE webhooks ADD COLUMN disabled_at timestamptz;
    ALTER TABLE events ALTER COLUMN transaction_id DROP NOT NULL;
  `,
  );
}
