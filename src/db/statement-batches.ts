/**
 * Concurrent runs of one statement, outside any transaction, sent as one
 * statement: the payment flows write each sale in one statement and commit
 * (one-statement.ts), and at 16 concurrent sales PostgreSQL spent more on each
 * statement's own costs (bind, executor start, commit, round trip) than on its
 * rows. So while IN_FLIGHT statements of a shape are running, the runs that
 * arrive wait, and the next statement sent carries several of them: the
 * statement's copies, built by its owner (`Copies`: one-statement.ts builds
 * them with Kysely, each copy with its own CTE names), n a power of two up to
 * MAX_COPIES so that each connection prepares few texts. A run alone is sent
 * at once, as before: one client sees no wait. Nor does a full batch, and no
 * run waits more than MAX_WAIT_MS: behind statements that stall (a database
 * that went silent), the runs that wait are sent anyway, so each meets the
 * pool's own timeouts as it would have unbatched.
 *
 * A statement is one transaction: its copies commit together or not at all.
 * When PostgreSQL refuses a batch with an ERROR (a unique violation, a
 * deadlock), nothing of it was written and the connection is sound, so each
 * run is sent again alone and gets its own answer: a run's outcome is what it
 * would have been unbatched. Any other failure (the connection lost, a timeout
 * with the statement perhaps still running) leaves the outcome unknown, and
 * every run of the batch gets that error, as each would have alone.
 *
 * Protocol pipelining (pg's `pipeline`: each sale still its own statement and
 * commit, sent without waiting for the previous answer) was measured against
 * this on the sandbox sale's statement and does not replace it: see
 * docs/architecture.md.
 */
import type { CompiledQuery, QueryResult } from 'kysely';
import type { Db } from './database.js';
import { isDatabaseUnavailable } from './unavailable.js';

const MAX_COPIES = 8;
/** Statements of one text in flight at once: more send smaller batches, fewer leave PostgreSQL's second core idle. */
const IN_FLIGHT = 2;
/** Far above a statement's time under load (a few ms), far below the pool's timeouts (seconds). */
export const MAX_WAIT_MS = 100;

/** A statement whose runs can share one: its text for n runs (n copies) and what each run reads from the result. */
export interface Copies<R, A> {
  /** The statement carrying `runs` (one, or a power of two up to MAX_COPIES), copy i being runs[i]'s. */
  statement(runs: readonly R[]): CompiledQuery;
  /** Copy `copy`'s answer, from the result of the statement that carried it. */
  answer(result: QueryResult<unknown>, copy: number): A;
}

interface Run<R, A> {
  run: R;
  resolve(answer: A): void;
  reject(err: unknown): void;
}

interface Line<R, A> {
  copies: Copies<R, A>;
  waiting: Run<R, A>[];
  inFlight: number;
  /** Set while runs wait: sends them all when it fires. */
  timer: NodeJS.Timeout | undefined;
}

const lines = new WeakMap<Db, Map<Copies<unknown, unknown>, Line<unknown, unknown>>>();

function lineOf<R, A>(db: Db, copies: Copies<R, A>): Line<R, A> {
  let byStatement = lines.get(db);
  if (!byStatement) lines.set(db, (byStatement = new Map()));
  let line = byStatement.get(copies as Copies<unknown, unknown>) as Line<R, A> | undefined;
  if (!line) byStatement.set(copies as Copies<unknown, unknown>, (line = { copies, waiting: [], inFlight: 0, timer: undefined }) as Line<unknown, unknown>);
  return line;
}

/** Runs `run` of `copies` on `db` (not a transaction), in one statement with other runs of the same statement that wait. */
export function executeBatched<R, A>(db: Db, copies: Copies<R, A>, run: R): Promise<A> {
  const line = lineOf(db, copies);
  return new Promise<A>((resolve, reject) => {
    line.waiting.push({ run, resolve, reject });
    drain(db, line);
  });
}

/** Sends what may go now (`all`: everything waiting); arms the timer for what is left. */
function drain<R, A>(db: Db, line: Line<R, A>, all = false): void {
  while (line.waiting.length > 0 && (all || line.inFlight < IN_FLIGHT || line.waiting.length >= MAX_COPIES)) {
    const batch = line.waiting.splice(0, copiesFor(line.waiting.length));
    line.inFlight++;
    void send(db, line, batch).finally(() => {
      line.inFlight--;
      drain(db, line);
    });
  }
  if (line.waiting.length === 0) {
    clearTimeout(line.timer);
    line.timer = undefined;
  } else {
    line.timer ??= setTimeout(() => {
      line.timer = undefined;
      drain(db, line, true);
    }, MAX_WAIT_MS).unref();
  }
}

async function runAlone<R, A>(db: Db, copies: Copies<R, A>, run: Run<R, A>): Promise<void> {
  try {
    run.resolve(copies.answer(await db.executeQuery(copies.statement([run.run])), 0));
  } catch (err) {
    run.reject(err);
  }
}

async function send<R, A>(db: Db, { copies }: Line<R, A>, batch: Run<R, A>[]): Promise<void> {
  if (batch.length === 1) return runAlone(db, copies, batch[0]!);
  let result: QueryResult<unknown>;
  try {
    result = await db.executeQuery(copies.statement(batch.map((run) => run.run)));
  } catch (err) {
    if (refusedWhole(err)) await Promise.all(batch.map((run) => runAlone(db, copies, run)));
    else for (const run of batch) run.reject(err);
    return;
  }
  batch.forEach((run, copy) => run.resolve(copies.answer(result, copy)));
}

/** PostgreSQL refused the statement with an ERROR: its transaction rolled back, the connection stays usable. */
function refusedWhole(err: unknown): boolean {
  const e = err as { code?: unknown; severity?: unknown } | null;
  return typeof e === 'object' && e !== null && typeof e.code === 'string' && e.severity === 'ERROR' && !isDatabaseUnavailable(err);
}

/** How many waiting runs the next statement carries: the largest power of two up to MAX_COPIES and `waiting`. */
function copiesFor(waiting: number): number {
  if (waiting < 2) return 1;
  let n = 2;
  while (n * 2 <= Math.min(waiting, MAX_COPIES)) n *= 2;
  return n;
}
