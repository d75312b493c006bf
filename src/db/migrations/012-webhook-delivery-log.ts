/**
 * GET /v2/webhooks/{id}/deliveries lists a registration's deliveries newest
 * first by id (issue 13: the ids a resend answers), so the index on
 * `webhook_id` alone becomes one on (webhook_id, id), which still serves the
 * cancel of a registration's pending deliveries. Attempts are now read by
 * delivery (the UNIQUE (delivery_id, attempt) index), no longer by
 * registration, so their index on (webhook_id, id) is dropped.
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    CREATE INDEX webhook_deliveries_log ON webhook_deliveries (webhook_id, id);
    DROP INDEX webhook_deliveries_webhook;
    DROP INDEX webhook_attempts_webhook;
    `,
  );
}
