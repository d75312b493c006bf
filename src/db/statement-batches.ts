/**
 * Concurrent runs of one statement text, outside any transaction, sent as one
 * statement: the payment flows write each sale in one statement and commit
 * (one-statement.ts), and at 16 concurrent sales PostgreSQL spent more on each
 * statement's own costs (bind, executor start, commit, round trip) than on its
 * rows. So while IN_FLIGHT statements of a text are running, the runs that
 * arrive wait, and the next statement sent carries several of them: the text
 * copied n times (each copy's CTEs renamed, its main statement made a CTE too,
 * its parameters numbered after the previous copy's), n a power of two up to
 * MAX_COPIES so that each connection prepares few texts. A run alone is sent
 * at once, as before: one client sees no wait. Nor does a full batch, and no
 * run waits more than MAX_WAIT_MS: behind statements that stall (a database
 * that went silent), the runs that wait are sent anyway, so each meets the
 * pool's own timeouts as it would have unbatched.
 *
 * A statement is one transaction: its copies commit together or not at all.
 * When PostgreSQL refuses a batch with an ERROR (a unique violation, a guard,
 * a deadlock), nothing of it was written and the connection is sound, so each
 * run is sent again alone and gets its own answer: a run's outcome is what it
 * would have been unbatched. Any other failure (the connection lost, a timeout
 * with the statement perhaps still running) leaves the outcome unknown, and
 * every run of the batch gets that error, as each would have alone.
 */
import { CompiledQuery } from 'kysely';
import type { Db } from './database.js';
import { isDatabaseUnavailable } from './unavailable.js';

const MAX_COPIES = 8;
/** Statements of one text in flight at once: more send smaller batches, fewer leave PostgreSQL's second core idle. */
const IN_FLIGHT = 2;
/** Far above a statement's time under load (a few ms), far below the pool's timeouts (seconds). */
export const MAX_WAIT_MS = 100;

interface Run {
  values: readonly unknown[];
  resolve(): void;
  reject(err: unknown): void;
}

/** What a text's copies are built from, once per text: its parts (undefined: never copied) and its copy texts by count. */
interface Copyable {
  parts: Parts | undefined;
  texts: Map<number, string>;
}

interface Line {
  text: string;
  copyable: Copyable;
  waiting: Run[];
  inFlight: number;
  /** Set while runs wait: sends them all when it fires. */
  timer: NodeJS.Timeout | undefined;
}

const lines = new WeakMap<Db, Map<string, Line>>();

function lineOf(db: Db, text: string): Line {
  let byText = lines.get(db);
  if (!byText) lines.set(db, (byText = new Map()));
  let line = byText.get(text);
  if (!line) byText.set(text, (line = { text, copyable: copyableOf(text), waiting: [], inFlight: 0, timer: undefined }));
  return line;
}

/** Runs `text` with `values` on `db` (not a transaction), in one statement with other runs of the same text that wait. */
export function executeBatched(db: Db, text: string, values: readonly unknown[]): Promise<void> {
  const line = lineOf(db, text);
  return new Promise<void>((resolve, reject) => {
    line.waiting.push({ values, resolve, reject });
    drain(db, line);
  });
}

/** Sends what may go now (`all`: everything waiting); arms the timer for what is left. */
function drain(db: Db, line: Line, all = false): void {
  while (line.waiting.length > 0 && (all || line.inFlight < IN_FLIGHT || line.waiting.length >= MAX_COPIES)) {
    const batch = line.waiting.splice(0, copiesFor(line.copyable, line.waiting.length));
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

async function runAlone(db: Db, text: string, run: Run): Promise<void> {
  try {
    await db.executeQuery(CompiledQuery.raw(text, run.values as unknown[]));
    run.resolve();
  } catch (err) {
    run.reject(err);
  }
}

async function send(db: Db, { text, copyable }: Line, batch: Run[]): Promise<void> {
  if (batch.length === 1) return runAlone(db, text, batch[0]!);
  try {
    await db.executeQuery(CompiledQuery.raw(copiesOf(copyable, batch.length), batch.flatMap((run) => run.values)));
  } catch (err) {
    if (refusedWhole(err)) await Promise.all(batch.map((run) => runAlone(db, text, run)));
    else for (const run of batch) run.reject(err);
    return;
  }
  for (const run of batch) run.resolve();
}

/** PostgreSQL refused the statement with an ERROR: its transaction rolled back, the connection stays usable. */
function refusedWhole(err: unknown): boolean {
  const e = err as { code?: unknown; severity?: unknown } | null;
  return typeof e === 'object' && e !== null && typeof e.code === 'string' && e.severity === 'ERROR' && !isDatabaseUnavailable(err);
}

/** A text split into its CTEs (`"w0" as (…), …`, empty when it has none) and its main statement, or undefined when it cannot be copied. */
interface Parts {
  ctes: string;
  main: string;
  parameters: number;
}

const copyables = new Map<string, Copyable>();

function copyableOf(text: string): Copyable {
  let copyable = copyables.get(text);
  if (!copyable) copyables.set(text, (copyable = { parts: partsOf(text), texts: new Map() }));
  return copyable;
}

/** How many waiting runs the next statement carries: the largest power of two up to MAX_COPIES and `waiting`. */
function copiesFor(copyable: Copyable, waiting: number): number {
  if (waiting < 2 || copyable.parts === undefined) return 1;
  let n = 2;
  while (n * 2 <= Math.min(waiting, MAX_COPIES)) n *= 2;
  return n;
}

/**
 * Splits a statement as Kysely compiles one-statement.ts's chains: `with "w0" as (…), "w1" as (…) MAIN`, or MAIN alone.
 * Parentheses inside string literals and quoted names are skipped. A text whose parameters are not exactly $1…$k is not copied.
 */
export function partsOf(text: string): Parts | undefined {
  const parameters = new Set([...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
  if (![...parameters].every((p) => p >= 1 && p <= parameters.size)) return undefined;
  if (/^(insert|update|delete) /i.test(text)) return { ctes: '', main: text, parameters: parameters.size };
  if (!text.startsWith('with ')) return undefined;
  const end = endOfCtes(text, 'with '.length);
  return end === undefined ? undefined : { ctes: text.slice('with '.length, end), main: text.slice(end + 1), parameters: parameters.size };
}

/** The index just after the last CTE of a `with` list starting at `from` (the space before the main statement), if the list is well formed. */
function endOfCtes(text: string, from: number): number | undefined {
  let i = from;
  for (;;) {
    const head = /^"w\d+" as \(/.exec(text.slice(i, i + 32));
    if (!head) return undefined;
    i += head[0].length;
    let depth = 1;
    while (depth > 0) {
      if (i >= text.length) return undefined;
      const c = text[i];
      if (c === "'" || c === '"') {
        const close = text.indexOf(c, i + 1);
        if (close < 0) return undefined;
        i = close + 1;
        continue;
      }
      if (c === '(') depth++;
      else if (c === ')') depth--;
      i++;
    }
    if (text.startsWith(', ', i)) i += 2;
    else return text[i] === ' ' ? i : undefined;
  }
}

/** `n` copies of `text` as one statement (see the header); the caller's values are the copies' values, in order. */
export function copiesText(text: string, n: number): string {
  return copiesOf(copyableOf(text), n);
}

function copiesOf({ parts, texts }: Copyable, n: number): string {
  const cached = texts.get(n);
  if (cached !== undefined) return cached;
  if (!parts) throw new Error('statement-batches: this text cannot be copied');
  const copies: string[] = [];
  for (let copy = 0; copy < n; copy++) {
    const shift = (sql: string) =>
      sql.replace(/\$(\d+)/g, (_, p: string) => `$${Number(p) + copy * parts.parameters}`).replace(/"w(\d+)"/g, `"c${copy}w$1"`);
    if (parts.ctes) copies.push(shift(parts.ctes));
    copies.push(`"c${copy}" as (${shift(parts.main)})`);
  }
  const combined = `with ${copies.join(', ')} select 1`;
  texts.set(n, combined);
  return combined;
}
