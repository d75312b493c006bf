/**
 * One SQL layer over two engines: PostgreSQL through `pg` (production, and
 * whenever DATABASE_URL is set) and PGlite, PostgreSQL compiled to WASM, in
 * DATA_DIR (the embedded default). Both are told to parse int8 as a number and
 * `date` as its `YYYY-MM-DD` text, so rows look the same on either engine.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { DummyDriver, Kysely, Migrator, PostgresAdapter, PostgresDialect, PostgresIntrospector, PostgresQueryCompiler, sql, type MigrationProvider } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { DEFAULT_DATABASE_POOL_SIZE, DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from '../config.js';
import { migrations } from './migrations/index.js';
import { createPostgresPool } from './postgres-pool.js';
import { isDatabaseUnavailable } from './unavailable.js';
import type { Database } from './types.js';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  engine: 'postgres' | 'pglite';
  close(): Promise<void>;
}

const INT8 = 20;
const DATE = 1082;
const parseInt8 = (v: string): number => Number(v);
const keepText = (v: string): string => v;

// PGlite zeroes its shared buffers in WASM at every start: the default 128 MB
// costs about 0.5 s per process (every `svc` command and server start). The
// embedded database serves a laptop or a sandbox, whose working set fits in
// 16 MB, and the operating system's page cache holds the rest of DATA_DIR.
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

export interface OpenOptions {
  /** PostgreSQL URL; without it, PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite folder; without it (and without databaseUrl), an in-memory PGlite. */
  dataDir?: string | undefined;
  /** PostgreSQL connections per process; DEFAULT_DATABASE_POOL_SIZE unless given. */
  poolSize?: number;
  /** PostgreSQL timeouts; DEFAULT_DATABASE_TIMEOUTS for those not given. */
  timeouts?: Partial<DatabaseTimeouts> | undefined;
  /** Called with errors of pool clients, idle or in use (a restarted server), which must not crash the process. */
  onPoolError?: (err: Error) => void;
  /**
   * PGlite only: start from this data directory (a dumpDataDir() tarball)
   * instead of running initdb; tests open an already-migrated copy this way.
   */
  loadDataDir?: Blob | undefined;
}

export async function openDatabase(opts: OpenOptions): Promise<DatabaseHandle> {
  if (opts.databaseUrl) {
    const settings = { ...DEFAULT_DATABASE_TIMEOUTS, ...opts.timeouts };
    const pool = createPostgresPool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? DEFAULT_DATABASE_POOL_SIZE,
      ...settings,
      types: {
        getTypeParser: ((oid: number, format?: string) =>
          oid === INT8 ? parseInt8 : oid === DATE ? keepText : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
      },
      ...(opts.onPoolError ? { onError: opts.onPoolError } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, engine: 'postgres', close: () => db.destroy() };
  }
  let dataDir: string | undefined;
  if (opts.dataDir) {
    dataDir = path.join(opts.dataDir, 'pglite');
    fs.mkdirSync(dataDir, { recursive: true });
  }
  const pglite = await PGlite.create({
    dataDir,
    startParams: PGLITE_START_PARAMS,
    parsers: { [INT8]: parseInt8, [DATE]: keepText },
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return { db, engine: 'pglite', close: () => db.destroy() };
}

/**
 * Migrations run on a connection of their own without statement, query or
 * idle-in-transaction timeouts: building an index on a big table may take
 * minutes, which is not a stalled database, and the migrator's transaction may
 * sit idle while its process is busy (the test run migrates PGlite, whose WASM
 * holds the event loop for seconds, beside PostgreSQL; killed by a 5 s idle
 * limit there, it failed). A dead migrating process is still found by TCP
 * keepalive. No request waits on migrations, so they also wait longer for a
 * connection on a busy server.
 */
export const MIGRATION_TIMEOUTS: Partial<DatabaseTimeouts> = { statementTimeoutMs: 0, queryTimeoutMs: 0, idleInTransactionTimeoutMs: 0, connectTimeoutMs: 30_000 };

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    // A database that went away mid-migration is thrown as it is, for the start to wait and retry (runtime.ts).
    if (isDatabaseUnavailable(error)) throw error;
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
  }
}

/** Whether the database answers a trivial query (GET /readyz). */
export function databaseAnswers(db: Db): Promise<boolean> {
  return sql`SELECT 1`.execute(db).then(
    () => true,
    () => false,
  );
}

/** A handle that never connects (Kysely's DummyDriver): for building apps whose queries never run (the OpenAPI documents). */
export function unconnectedDatabase(): Db {
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}
