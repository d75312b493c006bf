/**
 * Several tables written by ONE SQL statement: each module's repo builds its
 * INSERT (or UPDATE) unexecuted (a fragment) on the query creator it is handed, and the
 * service that owns the flow chains them as data-modifying CTEs
 * (`WITH w0 AS (INSERT …), w1 AS (INSERT …) INSERT …`, Kysely's `with`).
 * Executed outside any transaction, the statement is its own transaction:
 * every row is written or none is (a constraint violation in any part aborts
 * all of it), with one round trip and one commit. The parts run on one
 * snapshot, so no part may read what another writes (only what a part
 * RETURNs: the first part's rows are FIRST_PART, which a guard uses, see
 * confirmation.ts); foreign keys are checked at the end of the statement, so
 * their order is free.
 */
import type { InsertQueryBuilder, QueryCreator, UpdateQueryBuilder } from 'kysely';
import type { Db } from './database.js';
import type { Database } from './types.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a fragment may insert into any table and returns nothing
export type InsertFragment = (qc: QueryCreator<Database>) => InsertQueryBuilder<Database, any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as InsertFragment, for an UPDATE
export type UpdateFragment = (qc: QueryCreator<Database>) => UpdateQueryBuilder<Database, any, any, any>;
export type StatementFragment = InsertFragment | UpdateFragment;

/** The name under which the other parts read the rows the first part RETURNs. */
export const FIRST_PART = 'w0';

/** Runs the fragments as one statement: all but the last as CTEs (named w0, w1, … in order), the last as the main statement. */
export async function executeAsOne(db: Db, fragments: readonly StatementFragment[]): Promise<void> {
  const main = fragments.at(-1);
  if (!main) return;
  let creator: QueryCreator<Database> = db;
  fragments.slice(0, -1).forEach((fragment, i) => {
    // The CTEs add table names nobody reads (no part reads another's rows): the type stays the schema's.
    creator = creator.with(`w${i}`, fragment) as unknown as QueryCreator<Database>;
  });
  await main(creator).execute();
}

const UNIQUE_VIOLATION = '23505';
const NOT_NULL_VIOLATION = '23502';

/** Whether `err` is PostgreSQL's unique violation of the index or constraint `name` (pg and PGlite report both). */
export function isUniqueViolation(err: unknown, name: string): boolean {
  const e = err as { code?: unknown; constraint?: unknown } | null;
  return typeof e === 'object' && e !== null && e.code === UNIQUE_VIOLATION && e.constraint === name;
}

/** Whether `err` is PostgreSQL's not-null violation of `table`.`column` (how a guarded statement aborts: see confirmation.ts). */
export function isNotNullViolation(err: unknown, table: string, column: string): boolean {
  const e = err as { code?: unknown; table?: unknown; column?: unknown } | null;
  return typeof e === 'object' && e !== null && e.code === NOT_NULL_VIOLATION && e.table === table && e.column === column;
}
