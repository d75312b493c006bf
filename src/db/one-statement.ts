/**
 * Several tables written by ONE SQL statement: each module's repo builds its
 * INSERT (or UPDATE) unexecuted (a fragment) on the query creator it is handed, and the
 * service that owns the flow chains them as data-modifying CTEs
 * (`WITH w0 AS (INSERT …), w1 AS (INSERT …) INSERT …`, Kysely's `with`).
 * Executed outside any transaction, the statement is its own transaction:
 * every row is written or none is (a constraint violation in any part aborts
 * all of it), with one round trip and one commit, which concurrent statements
 * of the same text share (statement-batches.ts). The parts run on one
 * snapshot, so no part may read what another writes (only what a part
 * RETURNs: the first part's rows are FIRST_PART, which a guard uses, see
 * confirmation.ts); foreign keys are checked at the end of the statement, so
 * their order is free.
 *
 * The payment flows run the same few statements thousands of times a second,
 * and building and compiling each with Kysely was, after the QR image, the
 * largest CPU cost of a sale (the service's CPU per sandbox Pix sale at 16
 * clients went from 0.80-0.85 ms to 0.68 ms without it). So a fragment may be
 * shaped: it names its SQL text (`shape`) and lists its parameters
 * (`values`). A statement made only of shaped fragments is built and compiled
 * once per shape; its text is kept, and later statements of that shape send
 * it with the fragments' values, building nothing. The first compile checks
 * that the values listed are the parameters Kysely compiled, in order, so a
 * fragment whose list disagrees with its builder fails the first statement
 * that uses it (one-statement.test.ts), never sends a wrong one.
 */
import { CompiledQuery, type InsertObject, type InsertQueryBuilder, type QueryCreator, type UpdateQueryBuilder } from 'kysely';
import type { Db } from './database.js';
import { executeBatched } from './statement-batches.js';
import type { Database } from './types.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a fragment may insert into any table and returns nothing
type InsertBuilder = (qc: QueryCreator<Database>) => InsertQueryBuilder<Database, any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as InsertBuilder, for an UPDATE
type UpdateBuilder = (qc: QueryCreator<Database>) => UpdateQueryBuilder<Database, any, any, any>;

/** A fragment whose SQL text depends on `shape` alone, with its parameters in the order its text numbers them. */
interface Shaped<B> {
  shape: string;
  values: readonly unknown[];
  build: B;
}

export type InsertFragment = InsertBuilder | Shaped<InsertBuilder>;
export type UpdateFragment = UpdateBuilder | Shaped<UpdateBuilder>;
export type StatementFragment = InsertFragment | UpdateFragment;

/** The name under which the other parts read the rows the first part RETURNs. */
export const FIRST_PART = 'w0';

const isShaped = (fragment: StatementFragment): fragment is Shaped<InsertBuilder> | Shaped<UpdateBuilder> => typeof fragment !== 'function';

/** The fragment's builder, to execute it alone or in a larger statement. */
export function builderOf<B extends InsertBuilder | UpdateBuilder>(fragment: B | Shaped<B>): B {
  return typeof fragment === 'function' ? fragment : fragment.build;
}

/**
 * A shaped INSERT of one row given as an object, as Kysely's `values(row)`
 * compiles it: a column per key whose value is not undefined, in key order,
 * each value a parameter, except the columns in `expressions` (set by an SQL
 * expression, no parameter).
 */
export function shapedRow(table: string, row: Record<string, unknown>, build: InsertBuilder, expressions: readonly string[] = []): Shaped<InsertBuilder> {
  let shape = `${table}(`;
  const values: unknown[] = [];
  for (const column in row) {
    const value = row[column];
    if (value === undefined) continue;
    shape += `${column},`;
    if (!expressions.includes(column)) values.push(value);
  }
  return { shape: `${shape})${expressions.join(',')}`, values, build };
}

/** A plain INSERT of `row` into `table`, as a shaped fragment (shapedRow). */
export function insertRowFragment<T extends keyof Database & string>(table: T, row: InsertObject<Database, T>, expressions: readonly string[] = []): InsertFragment {
  return shapedRow(table, row as Record<string, unknown>, (qc) => qc.insertInto(table).values(row), expressions);
}

/** Statement texts by the shapes of their fragments. Both engines compile with Kysely's PostgreSQL compiler: one text serves both. */
const texts = new Map<string, string>();

/** Runs the fragments as one statement: all but the last as CTEs (named w0, w1, … in order), the last as the main statement. */
export async function executeAsOne(db: Db, fragments: readonly StatementFragment[]): Promise<void> {
  const main = fragments.at(-1);
  if (!main) return;
  const shape = fragments.every(isShaped) ? fragments.map((f) => f.shape).join('\n') : undefined;
  const values = shape === undefined ? [] : fragments.flatMap((f) => (f as Shaped<unknown>).values);
  const text = shape === undefined ? undefined : texts.get(shape);
  if (text !== undefined) {
    // Outside a transaction the statement is its own, and may share one with other sales (statement-batches.ts).
    await (db.isTransaction ? db.executeQuery(CompiledQuery.raw(text, values)) : executeBatched(db, text, values));
    return;
  }
  let creator: QueryCreator<Database> = db;
  fragments.slice(0, -1).forEach((fragment, i) => {
    // The CTEs add table names nobody reads (no part reads another's rows): the type stays the schema's.
    creator = creator.with(`w${i}`, builderOf(fragment)) as unknown as QueryCreator<Database>;
  });
  const compiled = builderOf(main)(creator).compile();
  if (shape !== undefined) {
    const differs = compiled.parameters.length !== values.length || compiled.parameters.some((p, i) => p !== values[i]);
    if (differs) throw new Error(`one-statement: the values listed by the fragments ${shape.replaceAll('\n', ' ')} are not the parameters they compile to`);
    texts.set(shape, compiled.sql);
  }
  await db.executeQuery(compiled);
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
