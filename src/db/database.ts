/**
 * One SQL layer over two engines: PostgreSQL through `pg` (production, and
 * whenever DATABASE_URL is set) and PGlite, PostgreSQL compiled to WASM, in
 * DATA_DIR (the embedded default). Both are told to parse int8 as a number and
 * `date` as its `YYYY-MM-DD` text, so rows look the same on either engine.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, type MigrationProvider } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { migrations } from './migrations/index.js';
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
  poolSize?: number;
  /** Called with errors of idle pool clients (a restarted server), which must not crash the process. */
  onPoolError?: (err: Error) => void;
  /**
   * PGlite only: start from this data directory (a dumpDataDir() tarball)
   * instead of running initdb; tests open an already-migrated copy this way.
   */
  loadDataDir?: Blob | undefined;
}

export async function openDatabase(opts: OpenOptions): Promise<DatabaseHandle> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 20,
      // Fail fast when the server is gone, so callers answer 503 instead of hanging.
      connectionTimeoutMillis: 3_000,
      idleTimeoutMillis: 30_000,
      types: {
        getTypeParser: ((oid: number, format?: string) =>
          oid === INT8 ? parseInt8 : oid === DATE ? keepText : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
      },
    });
    pool.on('error', (err) => opts.onPoolError?.(err));
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

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
  }
}
