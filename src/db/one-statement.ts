/**
 * Several tables written by ONE SQL statement: each module's repo describes
 * its INSERT (or UPDATE) as a fragment, and the service that owns the flow
 * chains them as data-modifying CTEs (`WITH w0 AS (INSERT …), w1 AS (INSERT …)
 * INSERT …`, Kysely's `with`). Executed outside any transaction, the
 * statement is its own transaction: every row is written or none is (a
 * constraint violation in any part aborts all of it), with one round trip
 * and one commit, which concurrent statements of the same shape share
 * (statement-batches.ts). The parts run on one snapshot, so no part may read
 * what another writes (only what a part RETURNs: the first part's rows, read
 * under `Place.first`); foreign keys are checked at the end of the
 * statement, so their order is free.
 *
 * The payment flows run the same few statements thousands of times a
 * second, and building and compiling each with Kysely was, after the QR
 * image, the largest CPU cost of a sale. So a fragment is its values and its
 * kind (fragmentKind), whose builder is written once, over values that may be
 * parameter slots: a statement is built and compiled once per shape (its
 * kinds and which of their values are undefined) and per number of copies,
 * with a Slot object in place of each value; the compiled parameter list then
 * says which value each `$n` is, and a later statement of that shape only
 * fills its parameters from its fragments' values, building nothing. A
 * builder therefore treats a value as opaque: it may test it for undefined
 * (a column left out, part of the shape) and nothing else.
 *
 * A guard (the first part, a kind declared 'guard') is an UPDATE of the
 * run's own row under a condition: every later part reads it (Place.guarded)
 * and writes nothing when it matched no row, and executeGuarded answers
 * whether it matched (also for each run of a batch).
 */
import { CompiledQuery, sql, type InsertObject, type InsertQueryBuilder, type QueryCreator, type QueryResult, type UpdateQueryBuilder } from 'kysely';
import type { Db } from './database.js';
import { executeBatched, type Copies } from './statement-batches.js';
import type { Database } from './types.js';

/** Where a part sits in its statement, as its builder needs to know. */
export interface Place {
  /** The name under which the rows the statement's first part RETURNs are read (each copy of a batch has its own). */
  first: string;
  /** The first part is a guard: this part must write nothing unless a row is read under `first`. */
  guarded: boolean;
}

type Values = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a fragment may insert into any table and returns nothing
type InsertBuilder = InsertQueryBuilder<Database, any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as InsertBuilder, for an UPDATE
type UpdateBuilder = UpdateQueryBuilder<Database, any, any, any>;
type Builder = InsertBuilder | UpdateBuilder;

/**
 * What a kind's rows are to a batch of runs: 'rows' inserts new rows; 'own row' updates a row only its
 * run writes (keyed by the run's own new or claimed row); 'guard' is an 'own row' update whose match the
 * other parts read; 'shared row' may update a row that another run of the same batch updates too (a
 * counter), which one statement cannot do twice, so it is refused outside a transaction.
 */
export type Writes = 'rows' | 'own row' | 'guard' | 'shared row';

export interface FragmentKind<V extends Values = Values, B extends Builder = Builder> {
  readonly id: number;
  readonly writes: Writes;
  /** Whether the builder honours Place.guarded (a part that may follow a guard). */
  readonly readsGuard: boolean;
  /** The fragment's query over its values, which may be Slots (see the header: a value is tested for undefined, nothing else). */
  build(qc: QueryCreator<Database>, values: V, at: Place): B;
}

export interface Fragment<V extends Values = Values, B extends Builder = Builder> {
  readonly kind: FragmentKind<V, B>;
  readonly values: V;
}

export type InsertFragment = Fragment<Values, InsertBuilder>;
export type UpdateFragment = Fragment<Values, UpdateBuilder>;
export type StatementFragment = Fragment;

let kinds = 0;

/** A kind of fragment, defined once (at module level: its builder must not hold any run's values). */
export function fragmentKind<V extends Values, B extends Builder>(writes: Writes, build: FragmentKind<V, B>['build'], options: { readsGuard?: boolean } = {}): (values: V) => Fragment<V, B> {
  const kind: FragmentKind<V, B> = { id: kinds++, writes, readsGuard: options.readsGuard ?? false, build };
  return (values) => ({ kind, values });
}

/** The name under which a statement run alone reads its first part's rows. */
const FIRST_PART = 'w0';
const ALONE: Place = { first: FIRST_PART, guarded: false };

/** The fragment's query with its own values, to execute it alone (adding clauses: ON CONFLICT, RETURNING). */
export function builderOf<B extends Builder>(fragment: Fragment<Values, B>): (qc: QueryCreator<Database>) => B {
  return (qc) => fragment.kind.build(qc, fragment.values, ALONE);
}

const rowKinds = new Map<string, (values: Values) => InsertFragment>();

/**
 * A plain INSERT of `row` into `table` (a column per key whose value is not undefined, in key order).
 * After a guard it is `INSERT … SELECT <values> FROM <guard>`: no row when the guard matched none.
 */
export function insertRowFragment<T extends keyof Database & string>(table: T, row: InsertObject<Database, T>): InsertFragment {
  let make = rowKinds.get(table);
  if (!make) {
    make = fragmentKind<Values, InsertBuilder>(
      'rows',
      (qc, values, at) => {
        if (!at.guarded) return qc.insertInto(table).values(values as InsertObject<Database, T>);
        const columns = Object.keys(values).filter((column) => values[column] !== undefined);
        // A parameter in an INSERT's SELECT list takes its column's type, as in VALUES.
        return qc
          .insertInto(table)
          .columns(columns as never)
          .expression((eb) => eb.selectFrom(sql.table(at.first).as('guard')).select(columns.map((column) => sql`${values[column]}`.as(column))) as never);
      },
      { readsGuard: true },
    );
    rowKinds.set(table, make);
  }
  return make(row as Values);
}

/** A statement that cannot be built as asked: a fragment its place does not allow (see Writes, Place.guarded). */
export class StatementRefused extends Error {
  override readonly name = 'StatementRefused';
}

/** Where one parameter of a statement under construction comes from: a value of a part of a copy. */
class Slot {
  constructor(
    readonly copy: number,
    readonly part: number,
    readonly key: string,
  ) {}
}

/** A statement's text for a number of copies, and where each of its parameters comes from. */
interface Plan {
  sql: string;
  /** Per parameter: its slot, or undefined for a constant of the builder (`constants`). */
  slots: (Slot | undefined)[];
  constants: unknown[];
}

/** The statements of one shape: its first runs' fragments (kinds and presence: what a plan is built from) and its plans by copies. */
class Shape implements Copies<readonly Fragment[], boolean> {
  readonly guarded: boolean;
  private readonly plans = new Map<number, Plan>();

  constructor(
    private readonly creator: QueryCreator<Database>,
    private readonly parts: readonly Fragment[],
  ) {
    this.guarded = parts[0]!.kind.writes === 'guard';
    parts.forEach((part, i) => {
      if (i > 0 && part.kind.writes === 'guard') throw new StatementRefused('one-statement: a guard must be the first part');
      if (i > 0 && this.guarded && !part.kind.readsGuard) throw new StatementRefused(`one-statement: part ${i} cannot follow a guard (its kind does not read it)`);
    });
  }

  /** Whether the statement may run outside a transaction, where concurrent runs share one (statement-batches.ts). */
  refusalOutsideTransaction(): StatementRefused | undefined {
    const shared = this.parts.findIndex((part) => part.kind.writes === 'shared row');
    return shared < 0 ? undefined : new StatementRefused(`one-statement: part ${shared} may update a row another run of a batch updates too; run it inside a transaction`);
  }

  statement(runs: readonly (readonly Fragment[])[]): CompiledQuery {
    const plan = this.planFor(runs.length);
    const parameters = new Array<unknown>(plan.slots.length);
    for (let i = 0; i < parameters.length; i++) {
      const slot = plan.slots[i];
      parameters[i] = slot === undefined ? plan.constants[i] : runs[slot.copy]![slot.part]!.values[slot.key];
    }
    return CompiledQuery.raw(plan.sql, parameters);
  }

  answer(result: QueryResult<unknown>, copy: number): boolean {
    if (!this.guarded) return true;
    return (result.rows[0] as Record<string, unknown> | undefined)?.[`g${copy}`] === true;
  }

  private planFor(copies: number): Plan {
    let plan = this.plans.get(copies);
    if (!plan) this.plans.set(copies, (plan = this.build(copies)));
    return plan;
  }

  /**
   * Alone and unguarded: `WITH w0 AS (…), … <last part>`. Otherwise every part of every copy is a CTE
   * (copy c's named c<c>w0, c<c>w1, … when there are several) and the statement selects each copy's guard match.
   */
  private build(copies: number): Plan {
    const name = (copy: number, part: number) => (copies === 1 ? `w${part}` : `c${copy}w${part}`);
    const mainIsLastPart = copies === 1 && !this.guarded;
    let creator = this.creator;
    for (let copy = 0; copy < copies; copy++) {
      const at: Place = { first: name(copy, 0), guarded: this.guarded };
      this.parts.forEach((part, i) => {
        if (mainIsLastPart && i === this.parts.length - 1) return;
        // The CTEs add table names nobody reads through Kysely's types: the type stays the schema's.
        creator = creator.with(name(copy, i), (qc) => part.kind.build(qc, slotsOf(part.values, copy, i), at)) as unknown as QueryCreator<Database>;
      });
    }
    const last = this.parts.length - 1;
    const main = mainIsLastPart
      ? this.parts[last]!.kind.build(creator, slotsOf(this.parts[last]!.values, 0, last), ALONE)
      : creator.selectNoFrom(
          this.guarded
            ? Array.from({ length: copies }, (_, copy) => sql<boolean>`exists (select 1 from ${sql.table(name(copy, 0))})`.as(`g${copy}`))
            : [sql<boolean>`true`.as('g0')],
        );
    const compiled = main.compile();
    // A builder that read a value (rather than pass it to Kysely) got a Slot and made nothing of it.
    if (compiled.parameters.includes(undefined)) throw new Error('one-statement: a builder compiled an undefined parameter (it must pass its values to Kysely as they are)');
    const slots = compiled.parameters.map((p) => (p instanceof Slot ? p : undefined));
    return { sql: compiled.sql, slots, constants: compiled.parameters.map((p) => (p instanceof Slot ? undefined : p)) };
  }
}

/** `values` with a Slot in place of each value that is not undefined (the same keys, in the same order). */
function slotsOf(values: Values, copy: number, part: number): Values {
  const slots: Values = {};
  for (const key in values) if (values[key] !== undefined) slots[key] = new Slot(copy, part, key);
  return slots;
}

/** A statement's shape: its parts' kinds and the keys of their values that are not undefined. */
function shapeKey(parts: readonly Fragment[]): string {
  let key = '';
  for (const part of parts) {
    key += `${part.kind.id}(`;
    for (const column in part.values) if (part.values[column] !== undefined) key += `${column},`;
    key += ')';
  }
  return key;
}

/** Statements by shape. Both engines compile with Kysely's PostgreSQL compiler: one text serves both. */
const shapes = new Map<string, Shape>();

async function execute(db: Db, parts: readonly Fragment[]): Promise<boolean> {
  const key = shapeKey(parts);
  let shape = shapes.get(key);
  if (!shape) shapes.set(key, (shape = new Shape(db, parts)));
  if (db.isTransaction) return shape.answer(await db.executeQuery(shape.statement([parts])), 0);
  const refused = shape.refusalOutsideTransaction();
  if (refused) throw refused;
  // Outside a transaction the statement is its own, and may share one with other sales (statement-batches.ts).
  return executeBatched(db, shape, parts);
}

/** Runs the fragments as one statement (see the header). */
export async function executeAsOne(db: Db, fragments: readonly Fragment[]): Promise<void> {
  if (fragments.length > 0) await execute(db, fragments);
}

/**
 * Runs the fragments as one statement whose first part is a guard: true when the guard's UPDATE matched
 * its row (and the other parts wrote theirs), false when it matched none and nothing was written.
 */
export async function executeGuarded(db: Db, fragments: readonly Fragment[]): Promise<boolean> {
  if (fragments[0]?.kind.writes !== 'guard') throw new StatementRefused('one-statement: a guarded statement starts with a guard');
  return execute(db, fragments);
}

const UNIQUE_VIOLATION = '23505';

/** Whether `err` is PostgreSQL's unique violation of the index or constraint `name` (pg and PGlite report both). */
export function isUniqueViolation(err: unknown, name: string): boolean {
  const e = err as { code?: unknown; constraint?: unknown } | null;
  return typeof e === 'object' && e !== null && e.code === UNIQUE_VIOLATION && e.constraint === name;
}
