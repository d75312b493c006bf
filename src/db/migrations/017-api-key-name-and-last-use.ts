/**
 * API keys gain a name (given in the dashboard; keys issued before, or by
 * `svc key issue`, have none) and the time of their last use, written by
 * authentication at most once a minute per key (companies/service.ts).
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    ALTER TABLE api_keys ADD COLUMN name text;
    ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;
  `,
  );
}
