/**
 * A PostgreSQL cluster of the test's own: `initdb` into a temporary folder,
 * started on a free port with `pg_ctl`, so a test may restart or stop it
 * without touching the machine's shared server. As root, PostgreSQL refuses
 * to run, so the binaries run as the `postgres` user (runuser) in a folder it owns.
 * `remove()` stops the server (immediate) and deletes the folder; it is also
 * run when the test process exits, however it exits.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../../helpers/server.js';

const execFileAsync = promisify(execFile);

export interface Cluster {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database?: string): string;
  /** `pg_ctl restart -m fast`: every session is terminated (57P01), then the server starts again. */
  restart(): Promise<void>;
  /** Runs one statement on a fresh connection straight to the cluster's `postgres` database (no proxy). */
  query<R extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<R[]>;
  /** The same, in `database`. */
  queryIn<R extends pg.QueryResultRow>(database: string, sql: string, params?: unknown[]): Promise<R[]>;
  /** Stops the server and deletes its folder; safe to call twice. */
  remove(): Promise<void>;
}

/** The newest PostgreSQL install's binaries (Debian: /usr/lib/postgresql/<major>/bin), or PG_BIN. */
function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const majors = fs.existsSync(root) ? fs.readdirSync(root).filter((d) => /^\d+$/.test(d)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const major of majors) {
    const dir = path.join(root, major, 'bin');
    if (fs.existsSync(path.join(dir, 'initdb'))) return dir;
  }
  throw new Error('no PostgreSQL binaries: install postgresql or set PG_BIN');
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL binary, as the `postgres` user when this process is root. */
function run(bin: string, args: string[]): Promise<unknown> {
  const file = path.join(binDir(), bin);
  return asRoot ? execFileAsync('runuser', ['-u', 'postgres', '--', file, ...args], { timeout: 60_000 }) : execFileAsync(file, args, { timeout: 60_000 });
}

export async function startCluster(): Promise<Cluster> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-faults-pg-'));
  if (asRoot) execFileSync('chown', ['postgres:', folder]);
  const dataDir = path.join(folder, 'data');
  const port = await freePort();
  const pgCtl = (...args: string[]) => run('pg_ctl', ['-D', dataDir, '-w', '-t', '30', '-l', path.join(folder, 'server.log'), ...args]);
  let removed = false;
  const removeNow = () => {
    if (removed) return;
    removed = true;
    try {
      execFileSync(asRoot ? 'runuser' : path.join(binDir(), 'pg_ctl'), [...(asRoot ? ['-u', 'postgres', '--', path.join(binDir(), 'pg_ctl')] : []), '-D', dataDir, '-m', 'immediate', 'stop'], { stdio: 'ignore' });
    } catch {
      // not running
    }
    fs.rmSync(folder, { recursive: true, force: true });
  };
  process.once('exit', removeNow);
  try {
    await run('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
    // Local connections only, the socket in the test's folder, and no fsync: the data is thrown away.
    const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${folder} -c fsync=off -c full_page_writes=off -c max_connections=100`;
    await pgCtl('-o', options, 'start');
  } catch (err) {
    removeNow();
    throw err;
  }
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    async restart() {
      await pgCtl('-m', 'fast', 'restart');
    },
    query: (sql, params) => queryIn(url(), sql, params),
    queryIn: (database, sql, params) => queryIn(url(database), sql, params),
    async remove() {
      removeNow();
    },
  };
}

async function queryIn<R extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
