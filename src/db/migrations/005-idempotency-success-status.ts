/**
 * The success status of the route that claimed an Idempotency-Key, written
 * when the key is claimed, so that whoever finishes the request (the request
 * itself, or the worker recovering one whose process died) stores the right
 * status without the service knowing HTTP. Keys claimed before this column
 * existed belong to create and confirm, the only requests the worker
 * recovers, and both answer 201; later claims always name their status.
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    ALTER TABLE idempotency_keys ADD COLUMN success_status int NOT NULL DEFAULT 201;
    ALTER TABLE idempotency_keys ALTER COLUMN success_status DROP DEFAULT;
    `,
  );
}
