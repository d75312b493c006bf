/**
 * Database targets for tests: every database test runs on PGlite (in memory)
 * and, when TEST_DATABASE_URL is set, on PostgreSQL in a database of its own
 * that is dropped afterwards, so test files never see each other's rows.
 *
 * Migrating is done once per run, not once per database: creating a PGlite
 * database runs initdb in WASM, which costs seconds each time.
 *  - PGlite: a migrated data directory is dumped to a tarball once and
 *    unpacked to a data folder once; every test database is a copy of that
 *    folder, opened in place, and so is the DATA_DIR/pglite of every server
 *    the e2e tests start.
 *  - PostgreSQL: a migrated template database is created once, and every test
 *    database is `CREATE DATABASE … TEMPLATE` it.
 * scripts/test.mjs prepares both before the runner starts (prepareTestRun) and
 * passes them down in the environment; a test file run on its own prepares
 * what it needs itself, once per process.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { MIGRATION_TIMEOUTS, migrate, openDatabase, type DatabaseHandle, type Db } from '../../src/db/database.js';
import type { Database } from '../../src/db/types.js';

export type Engine = 'pglite' | 'postgres';

/** A tarball of a migrated PGlite data directory (dumpDataDir). */
const PGLITE_SNAPSHOT_ENV = 'SVC_TEST_PGLITE_SNAPSHOT';
/** A folder holding a migrated PGlite data directory, in the layout of DATA_DIR/pglite. */
const PGLITE_DATA_DIR_ENV = 'SVC_TEST_PGLITE_DATA_DIR';
/** The name of a migrated PostgreSQL database on TEST_DATABASE_URL's server, to copy from. */
const POSTGRES_TEMPLATE_ENV = 'SVC_TEST_POSTGRES_TEMPLATE';

export function engines(): Engine[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestDatabase extends DatabaseHandle {
  /** The URL of the fresh PostgreSQL database (postgres engine only), for child processes. */
  url?: string;
}

// ---- PGlite -----------------------------------------------------------------

/**
 * Runs initdb and the migrations once, and returns the data directory as a
 * tarball. Every test database and e2e server loads it, so it is kept small:
 * 1 MB WAL segments instead of 16, and no template databases (tests never
 * create a database). 13 MB instead of 40, about 0.25 s less per load.
 */
async function migratedPgliteTarball(): Promise<Blob> {
  const pglite = await PGlite.create({ initDbStartParams: ['--wal-segsize=1'] });
  const db: Db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  try {
    await migrate(db);
    for (const template of ['template0', 'template1']) {
      await pglite.exec(`ALTER DATABASE ${template} IS_TEMPLATE false`);
      await pglite.exec(`DROP DATABASE ${template}`);
    }
    return await pglite.dumpDataDir('none');
  } finally {
    await db.destroy();
  }
}

let snapshot: Promise<Blob> | undefined;

/** The migrated data directory every PGlite test database starts from: the run's, or one made by this process. */
function pgliteSnapshot(): Promise<Blob> {
  snapshot ??= (async () => {
    const file = process.env[PGLITE_SNAPSHOT_ENV];
    if (file && fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
    return migratedPgliteTarball();
  })();
  return snapshot;
}

/** Writes a migrated PGlite data directory into `folder` (as DATA_DIR/pglite is laid out). */
async function writePgliteDataDir(folder: string, tarball: Blob): Promise<void> {
  const pglite = await PGlite.create({ dataDir: folder, loadDataDir: tarball });
  await pglite.close();
}

let dataDirTemplate: Promise<string> | undefined;

/**
 * Copies a migrated PGlite data directory to DATA_DIR/pglite, so a server
 * started on DATA_DIR skips initdb; it still runs its migrations at start,
 * which then have nothing to do.
 */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  dataDirTemplate ??= (async () => {
    const given = process.env[PGLITE_DATA_DIR_ENV];
    if (given && fs.existsSync(path.join(given, 'PG_VERSION'))) return given;
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-pglite-'));
    process.once('exit', () => fs.rmSync(folder, { recursive: true, force: true }));
    const dir = path.join(folder, 'pglite');
    await writePgliteDataDir(dir, await pgliteSnapshot());
    return dir;
  })();
  fs.cpSync(await dataDirTemplate, path.join(dataDir, 'pglite'), { recursive: true });
}

// ---- PostgreSQL -------------------------------------------------------------

function adminUrl(): string {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  return base;
}

function urlOf(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A unique database name: runs of the suite may share one PostgreSQL server. */
function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

async function dropDatabase(name: string): Promise<void> {
  await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/** Runs the migrations on the PostgreSQL database at `url`, and closes its connection. */
async function migrateDatabase(url: string): Promise<void> {
  const handle = await openDatabase({ databaseUrl: url, poolSize: 1, timeouts: MIGRATION_TIMEOUTS });
  try {
    await migrate(handle.db);
  } finally {
    await handle.close();
  }
}

/** Creates a migrated PostgreSQL database to copy test databases from; the caller drops it. */
async function createPostgresTemplate(): Promise<string> {
  const name = uniqueName('svc_tmpl');
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  try {
    // Closed once migrated: CREATE DATABASE … TEMPLATE needs the template to have no connections.
    await migrateDatabase(urlOf(name));
  } catch (err) {
    await dropDatabase(name);
    throw err;
  }
  return name;
}

/**
 * Creates a PostgreSQL database and returns its URL. `migrated` (the default)
 * copies the run's migrated template; otherwise the database is empty, as a
 * first deployment's is.
 */
export async function createPostgresDatabase(opts: { migrated?: boolean } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const template = opts.migrated === false ? undefined : process.env[POSTGRES_TEMPLATE_ENV];
  const name = uniqueName('svc_test');
  await admin((c) => c.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`));
  const url = urlOf(name);
  // Run on its own (no template from scripts/test.mjs): migrate this database.
  if (opts.migrated !== false && !template) await migrateDatabase(url);
  return { url, drop: () => dropDatabase(name) };
}

/** A URL of `database` on TEST_DATABASE_URL's server that logs in as `role` (the test server trusts local logins). */
function urlAs(role: string, database: string): string {
  const url = new URL(urlOf(database));
  url.username = role;
  url.password = '';
  return url.toString();
}

export interface RolesDatabase {
  /** The login roles, in the order asked, none a superuser. */
  roles: string[];
  /** A URL of the database as each role, in the same order. */
  urls: string[];
  /** A URL of the database as TEST_DATABASE_URL's superuser. */
  superuserUrl: string;
  /** Drops the database, then the roles. */
  drop(): Promise<void>;
}

/**
 * Login roles of their own (unique names: the server is shared) and an empty
 * database owned by the first, as an operator sets up a deployment whose
 * processes connect as different roles.
 */
export async function createRolesDatabase(prefixes: string[]): Promise<RolesDatabase> {
  const roles = prefixes.map(uniqueName);
  const name = uniqueName('svc_roles');
  const drop = async () => {
    await dropDatabase(name);
    await admin(async (c) => {
      for (const role of roles) await c.query(`DROP ROLE IF EXISTS ${role}`);
    });
  };
  try {
    await admin(async (c) => {
      for (const role of roles) await c.query(`CREATE ROLE ${role} LOGIN NOSUPERUSER`);
      await c.query(`CREATE DATABASE ${name} OWNER ${roles[0]}`);
    });
  } catch (err) {
    await drop();
    throw err;
  }
  return { roles, urls: roles.map((role) => urlAs(role, name)), superuserUrl: urlOf(name), drop };
}

// ---- both -------------------------------------------------------------------

/** Folders of this process's open PGlite test databases, removed at exit if a test did not close one. */
const pgliteFolders = new Set<string>();
process.once('exit', () => {
  for (const folder of pgliteFolders) fs.rmSync(folder, { recursive: true, force: true });
});

/**
 * A PGlite test database: a copy of the migrated data folder (seedPgliteDataDir, a native file copy)
 * opened in place, removed at close. Loading the snapshot's tarball into PGlite's in-memory file
 * system instead cost about 0.15 s more CPU per database, in the JavaScript that unpacks it.
 */
async function openPgliteTestDatabase(): Promise<TestDatabase> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-db-'));
  pgliteFolders.add(folder);
  const remove = () => {
    fs.rmSync(folder, { recursive: true, force: true });
    pgliteFolders.delete(folder);
  };
  try {
    await seedPgliteDataDir(folder);
    const handle = await openDatabase({ dataDir: folder });
    return {
      ...handle,
      async close() {
        await handle.close();
        remove();
      },
    };
  } catch (err) {
    remove();
    throw err;
  }
}

/** A migrated, empty database on the given engine. close() also drops a PostgreSQL one, and removes a PGlite one's folder. */
export async function openTestDatabase(engine: Engine): Promise<TestDatabase> {
  if (engine === 'pglite') return openPgliteTestDatabase();
  const created = await createPostgresDatabase();
  const handle = await openDatabase({ databaseUrl: created.url, poolSize: 60 });
  return {
    ...handle,
    url: created.url,
    async close() {
      await handle.close();
      await created.drop();
    },
  };
}

/**
 * What scripts/test.mjs prepares once for a whole run: the PGlite snapshot
 * (a tarball and a data folder) in a temporary folder and, with
 * TEST_DATABASE_URL, the PostgreSQL template. `env` passes them to the test
 * processes; `cleanup` removes them.
 *
 * @public scripts/test.mjs loads this file (compiled), out of sight of static analysis.
 */
export async function prepareTestRun(): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-run-'));
  let template: string | undefined;
  const cleanup = async () => {
    fs.rmSync(folder, { recursive: true, force: true });
    if (template) await dropDatabase(template);
  };
  // Created alongside the PGlite snapshot (one waits on the server, the other on WASM).
  const postgresTemplate = process.env.TEST_DATABASE_URL ? createPostgresTemplate() : undefined;
  postgresTemplate?.catch(() => {}); // observed below; this keeps a PGlite failure from leaving it unhandled
  try {
    const tarball = await migratedPgliteTarball();
    const tarFile = path.join(folder, 'pglite.tar');
    fs.writeFileSync(tarFile, Buffer.from(await tarball.arrayBuffer()));
    const dataDir = path.join(folder, 'pglite');
    await writePgliteDataDir(dataDir, tarball);
    const env: Record<string, string> = { [PGLITE_SNAPSHOT_ENV]: tarFile, [PGLITE_DATA_DIR_ENV]: dataDir };
    if (postgresTemplate) {
      template = await postgresTemplate;
      env[POSTGRES_TEMPLATE_ENV] = template;
    }
    return { env, cleanup };
  } catch (err) {
    await cleanup();
    // A template finished after the PGlite side failed is dropped too.
    if (!template) await postgresTemplate?.then(dropDatabase, () => {});
    throw err;
  }
}
