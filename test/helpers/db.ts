/**
 * Database targets for tests: every database test runs on PGlite (in memory)
 * and, when TEST_DATABASE_URL is set, on PostgreSQL in a fresh database of its
 * own that is dropped afterwards, so test files never see each other's rows.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate, openDatabase, type DatabaseHandle } from '../../src/db/database.js';

export type Engine = 'pglite' | 'postgres';

export function engines(): Engine[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestDatabase extends DatabaseHandle {
  /** The URL of the fresh PostgreSQL database (postgres engine only), for child processes. */
  url?: string;
}

/** Creates an empty PostgreSQL database and returns its URL. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** A migrated, empty database on the given engine. close() also drops a PostgreSQL one. */
export async function openTestDatabase(engine: Engine): Promise<TestDatabase> {
  if (engine === 'pglite') {
    const handle = await openDatabase({});
    await migrate(handle.db);
    return handle;
  }
  const created = await createPostgresDatabase();
  const handle = await openDatabase({ databaseUrl: created.url, poolSize: 60 });
  await migrate(handle.db);
  return {
    ...handle,
    url: created.url,
    async close() {
      await handle.close();
      await created.drop();
    },
  };
}
