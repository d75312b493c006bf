/**
 * `transactions.version` (issue 13): a sequence number of the transaction's
 * state, 1 when it is created and one more at each change (paid, canceled,
 * failed, each refund or chargeback applied), carried in every event's
 * `data.transaction` so a receiver drops a stale event with one comparison.
 * Rows made before start at 1: the events they sent carried no version, so
 * no receiver holds a number to compare with. On PostgreSQL 11 and later a
 * constant default adds the column without rewriting the table.
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, `ALTER TABLE transactions ADD COLUMN version int4 NOT NULL DEFAULT 1 CHECK (version > 0);`);
}
