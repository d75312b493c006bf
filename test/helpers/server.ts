/**
 * End-to-end helper: runs the real `svc serve` (compiled dist/, so run
 * `npm run build` first) as a child process and talks to it over HTTP.
 *
 * Each server gets a free port, a temporary DATA_DIR, and a database of its
 * own: a fresh PostgreSQL database (createPostgresDatabase) when
 * TEST_DATABASE_URL is set, otherwise the embedded PGlite in DATA_DIR. Both
 * start already migrated (a copy of the run's migrated database), so a start
 * costs no initdb; the server still runs its migrations, which find nothing
 * to do. `createDeployment({ migrated: false })` gives an empty one, as a
 * first installation has. The
 * sandbox key is read from DATA_DIR/sandbox-key.txt once the first-start demo
 * is printed. `stop()` sends SIGTERM, waits for the exit, then drops the
 * database and removes DATA_DIR; `stop({ keep: true })` leaves both in place
 * so `startServer({ reuse })` can start the same deployment again.
 *
 * Every `svc` process of the tests (serve, api, worker) is spawned by
 * spawnSvc; one-shot operator commands run through runCli.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openDatabase, type Db } from '../../src/db/database.js';
import { createPostgresDatabase, seedPgliteDataDir, type Engine } from './db.js';

const execFileAsync = promisify(execFile);

/** The nearest folder above this file with a package.json: the repository, also from the compiled copy in .test-build/. */
function findRepoRoot(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error('no package.json above test/helpers');
  }
}

export const REPO_ROOT = findRepoRoot();
const SVC = path.join(REPO_ROOT, 'bin', 'svc.js');
/**
 * The svc processes a test starts live for seconds: they run PGlite's
 * WebAssembly with V8's baseline compiler only, as the test processes do
 * (scripts/test.mjs), instead of spending a core optimising code they will
 * hardly run. The code under test is the same.
 */
const SVC_ARGS = process.execArgv.includes('--liftoff-only') ? ['--liftoff-only', SVC] : [SVC];
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

export function e2eEngine(): Engine {
  return process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
}

/** Where a deployment keeps its state; shared by every start of the same deployment. */
export interface Deployment {
  engine: Engine;
  dataDir: string;
  databaseUrl?: string;
  /** Drops the database and removes DATA_DIR. */
  destroy(): Promise<void>;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (commands run with --json), when it parses. */
  json: unknown;
}

export interface TestServer {
  url: string;
  key: string;
  companyId?: string;
  dataDir: string;
  databaseUrl?: string;
  engine: Engine;
  deployment: Deployment;
  child: ChildProcess;
  /** Everything the process wrote to stdout / stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited (it may still be running). */
  exited: Promise<ExitInfo>;
  /** fetch `path` on this server with the sandbox key (override `authorization` to change it). */
  api(pathname: string, init?: ApiInit): Promise<Response>;
  /** SIGTERM, wait for exit; unless `keep`, drop the database and remove DATA_DIR. */
  stop(opts?: { keep?: boolean }): Promise<ExitInfo>;
  /** Runs `svc <args>` against the same DATABASE_URL / DATA_DIR (PGlite: through the running server, see src/operator/). */
  cli(...args: string[]): Promise<CliResult>;
}

/** fetch on `baseUrl` with `key` as the bearer; a body is sent as JSON (strings as given). */
export function apiClient(baseUrl: string, key: string): (pathname: string, init?: ApiInit) => Promise<Response> {
  return (pathname, init = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...(init.headers ?? {}) };
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    return fetch(`${baseUrl}${pathname}`, { method: init.method ?? (body !== undefined ? 'POST' : 'GET'), headers, body, ...(init.signal ? { signal: init.signal } : {}) });
  };
}

export interface ApiInit {
  method?: string;
  headers?: Record<string, string>;
  /** A value to send as JSON (strings are sent as given). */
  body?: unknown;
  /** Aborts the request (a deadline: AbortSignal.timeout). */
  signal?: AbortSignal;
}

export interface StartOptions {
  /** Extra environment for the server (RATE_LIMIT_PER_SECOND, LOG_LEVEL, ...). */
  env?: Record<string, string>;
  /** Start again on the data of an earlier (stopped with keep) server. */
  reuse?: Deployment;
  /** A new deployment's database starts empty (first installation) instead of migrated. */
  migrated?: boolean;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A DATA_DIR and a database for servers to run on: migrated unless
 * `migrated: false`, in which case the first server start creates the schema.
 * The engine is the run's (e2eEngine) unless `engine` names one.
 */
export async function createDeployment(opts: { migrated?: boolean; engine?: Engine } = {}): Promise<Deployment> {
  const migrated = opts.migrated ?? true;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-e2e-'));
  if ((opts.engine ?? e2eEngine()) === 'postgres') {
    const created = await createPostgresDatabase({ migrated });
    return {
      engine: 'postgres',
      dataDir,
      databaseUrl: created.url,
      async destroy() {
        await created.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  if (migrated) await seedPgliteDataDir(dataDir);
  return {
    engine: 'pglite',
    dataDir,
    async destroy() {
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The environment of a child (server or CLI) of this deployment, without the test runner's own variables. */
export function childEnv(deployment: Deployment, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  delete env.NODE_TEST_CONTEXT;
  delete env.NODE_OPTIONS;
  delete env.PORT;
  env.DATA_DIR = deployment.dataDir;
  env.SVC_ENV = 'sandbox';
  env.LOG_LEVEL = 'warn';
  if (deployment.databaseUrl) env.DATABASE_URL = deployment.databaseUrl;
  return { ...env, ...extra };
}

export async function runCli(deployment: Deployment, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [...SVC_ARGS, ...args], {
      cwd: REPO_ROOT,
      env: childEnv(deployment, env),
      // As long as a server may take to start: an operator command opens the same database.
      timeout: READY_TIMEOUT_MS,
    });
    return { code: 0, stdout, stderr, json: parseJson(stdout) };
  } catch (err) {
    const e = err as { code?: number | string; stdout?: string; stderr?: string };
    if (typeof e.code !== 'number') throw err;
    return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '', json: parseJson(e.stdout ?? '') };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}


/** Opens this deployment's database directly (PGlite: only while no server runs). */
export async function withDatabase<T>(deployment: Deployment, fn: (db: Db) => Promise<T>): Promise<T> {
  const handle = await openDatabase(
    deployment.databaseUrl ? { databaseUrl: deployment.databaseUrl, poolSize: 2 } : { dataDir: deployment.dataDir },
  );
  try {
    return await fn(handle.db);
  } finally {
    await handle.close();
  }
}

export async function startServer(opts: StartOptions = {}): Promise<TestServer> {
  const deployment = opts.reuse ?? (await createDeployment({ migrated: opts.migrated ?? true }));
  try {
    return await retryOnTakenPort(() => launch(deployment, opts.env ?? {}));
  } catch (err) {
    if (!opts.reuse) await deployment.destroy().catch(() => {});
    throw err;
  }
}

/**
 * Runs `start` (which listens on a port from freePort) again, up to 3 times in
 * all, while it fails because another process took the port between probing
 * and listening.
 */
export async function retryOnTakenPort<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      if (!(err instanceof LaunchError && err.portTaken) || attempt >= 3) throw err;
    }
  }
}

/** A running `svc` process: its output so far, its exit, and a graceful stop. */
export interface SvcProcess {
  child: ChildProcess;
  pid: number;
  /** Everything the process wrote to stdout / stderr so far. */
  stdout(): string;
  stderr(): string;
  /** stdout and stderr together, in the order they arrived. */
  output(): string;
  /** The exit, once the process has exited. */
  exitInfo(): ExitInfo | undefined;
  /** Resolves when the process has exited (it may still be running). */
  exited: Promise<ExitInfo>;
  /** SIGTERM, then SIGKILL if it is still running after 15 s; resolves with the exit. */
  stop(): Promise<ExitInfo>;
}

/**
 * Spawns `svc <args>` (compiled dist/) with `env` as its whole environment
 * (see childEnv). The process is SIGKILLed if the test process exits first.
 */
export function spawnSvc(args: string[], env: NodeJS.ProcessEnv): SvcProcess {
  const child = spawn(process.execPath, [...SVC_ARGS, ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let out = '';
  let err = '';
  let all = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => ((out += chunk), (all += chunk)));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => ((err += chunk), (all += chunk)));
  let exitInfo: ExitInfo | undefined;
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      exitInfo = { code, signal };
      resolve(exitInfo);
    });
  });
  return {
    child,
    pid: child.pid!,
    stdout: () => out,
    stderr: () => err,
    output: () => all,
    exitInfo: () => exitInfo,
    exited,
    async stop() {
      if (!exitInfo) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      const info = await exited;
      clearTimeout(timer);
      return info;
    },
  };
}

class LaunchError extends Error {
  constructor(
    message: string,
    /** Another process took the port between probing and listening: worth another port. */
    readonly portTaken: boolean,
  ) {
    super(message);
  }
}

/**
 * Waits until `url`/readyz answers (and `ready()`, when given, holds). Throws
 * a LaunchError with the process's output if it exits first or is not ready
 * within 60 s (then it is killed).
 */
export async function waitUntilReady(proc: SvcProcess, url: string, ready: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const name = `svc ${proc.child.spawnargs.slice(2).join(' ')}`;
  for (;;) {
    const exit = proc.exitInfo();
    if (exit) {
      throw new LaunchError(
        `${name} exited (${exit.code ?? exit.signal}) before it was ready\n--- stdout\n${proc.stdout()}\n--- stderr\n${proc.stderr()}`,
        /port \d+ is in use; set (VAULT_)?PORT/.test(proc.output()),
      );
    }
    if (Date.now() > deadline) {
      proc.child.kill('SIGKILL');
      await proc.exited;
      throw new LaunchError(`${name} was not ready within ${READY_TIMEOUT_MS} ms\n--- stdout\n${proc.stdout()}\n--- stderr\n${proc.stderr()}`, false);
    }
    const up = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (up && ready()) return;
    await sleep(100);
  }
}

async function launch(deployment: Deployment, extraEnv: Record<string, string>): Promise<TestServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Each server's vault gets its own port too, unless the test chose one (test files run side by side).
  const vaultPort = extraEnv.VAULT_PORT ?? String(await freePort());
  const vaultEnv = { VAULT_PORT: vaultPort, PUBLIC_VAULT_URL: extraEnv.PUBLIC_VAULT_URL ?? `http://localhost:${vaultPort}` };
  // Payment links' pages are served, and their requests accepted, at the address the tests reach the API by.
  const publicEnv = { PUBLIC_API_URL: extraEnv.PUBLIC_API_URL ?? url };
  const proc = spawnSvc(['serve'], childEnv(deployment, { HOST: '127.0.0.1', ...vaultEnv, ...publicEnv, ...extraEnv, PORT: String(port) }));
  // Ready = /readyz answers and the first-start demo (key file written before it) has been printed.
  await waitUntilReady(proc, url, () => /Sandbox API key: /.test(proc.stdout()));

  const keyFile = path.join(deployment.dataDir, 'sandbox-key.txt');
  const key = fs.readFileSync(keyFile, 'utf8').trim();
  const companyId = /Demo company: .*\((cmp_[0-9a-z]+)\)/.exec(proc.stdout())?.[1];

  const server: TestServer = {
    url,
    key,
    companyId,
    dataDir: deployment.dataDir,
    databaseUrl: deployment.databaseUrl,
    engine: deployment.engine,
    deployment,
    child: proc.child,
    stdout: proc.stdout,
    stderr: proc.stderr,
    exited: proc.exited,
    api: apiClient(url, key),
    async stop(stopOpts = {}) {
      const info = await proc.stop();
      if (!stopOpts.keep) await deployment.destroy();
      return info;
    },
    cli: (...args) => runCli(deployment, args),
  };
  return server;
}

/** Polls `check` once a second until it returns true or `timeoutMs` passes; returns the elapsed ms, or undefined. */
export async function pollEverySecond(check: () => Promise<boolean>, timeoutMs: number): Promise<number | undefined> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started >= timeoutMs) return undefined;
    await sleep(1_000);
  }
}

let keyCounter = 0;
/** A fresh Idempotency-Key. */
export function idemKey(label = 'k'): string {
  return `${label}-${process.pid}-${Date.now()}-${++keyCounter}`;
}
