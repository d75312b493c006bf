/**
 * The success status of the route that claimed an Idempotency-Key, written
 * when the key is claimed, so that whoever finishes the request (the request
 * itself, or the worker recovering one whose process died) stores the right
 * status without the service knowing HTTP.
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, `ALTER TABLE idempotency_keys ADD COLUMN success_status int`);
}
