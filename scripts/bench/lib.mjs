// Shared pieces of `npm run bench`: scratch databases and folders, the service's
// processes, cleanup on every exit path (success, failure, Ctrl-C), small load loops.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Pool } from 'undici';

export { sleep };
export const BASE_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const SVC = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'svc.js');
const suffix = crypto.randomBytes(4).toString('hex');

// ---- cleanup: registered steps run in reverse order, once ----
const steps = [];
let cleaning;
export const onCleanup = (fn) => steps.push(fn);
export function cleanup() {
  cleaning ??= (async () => {
    for (const step of steps.reverse()) await Promise.resolve().then(step).catch((err) => console.error(`cleanup: ${err.message}`));
  })();
  return cleaning;
}
export function installSignalHandlers() {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping the processes and dropping the bench databases…`);
      cleanup().finally(() => process.exit(130));
    });
  }
}
export const isStopping = () => cleaning !== undefined;
// After Ctrl-C, a part may still be running: park it until cleanup calls process.exit.
export const parkIfStopping = () => cleaning && new Promise(() => {});

// ---- databases and folders ----
let admin;
export async function adminQuery(text, params) {
  if (!admin) {
    admin = new pg.Client({ connectionString: BASE_URL });
    onCleanup(() => admin.end()); // registered first, so it runs after every DROP
    await admin.connect();
  }
  return admin.query(text, params);
}
export const dbUrl = (name) => Object.assign(new URL(BASE_URL), { pathname: `/${name}` }).toString();

/** A fresh database, dropped at cleanup (FORCE, PostgreSQL 13+, ends sessions still attached). */
export async function createDatabase(label) {
  const name = `svc_bench_${suffix}_${label}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  onCleanup(() => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  return { name, url: dbUrl(name) };
}

export function tempDir(label) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `svc-bench-${label}-`));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = net.createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

// ---- the service's processes ----
/** The environment of every role: one database and DATA_DIR, loopback only, quiet, no API rate limit. */
export async function serviceEnv({ databaseUrl, dataDir, ...extra }) {
  return {
    ...process.env,
    PORT: String(await freePort()),
    VAULT_PORT: String(await freePort()), // 3001 may be taken; the API of `serve` finds its vault through this
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    SVC_ENV: 'sandbox',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_SECOND: '1000000', // the sandbox default (25/s) would turn the bench into a 429 test
    ...extra,
  };
}

/**
 * Starts `svc ROLE` (this repository's bin/svc.js, or the one at `svc`) in its own process group
 * (detached, so a terminal Ctrl-C reaches only us and we stop it once, cleanly). If it dies
 * unexpectedly the bench stops.
 */
export function spawnSvc(role, env, svc = SVC) {
  // BENCH_PROFILE=DIR: each service process writes a V8 CPU profile there when it stops (open it in Chrome's DevTools).
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, svc, role], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = ''; // last output, shown if the process dies
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => (tail = (tail + chunk).slice(-4000)));
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping && !isStopping()) {
      console.error(`svc ${role} exited unexpectedly (${signal ?? code}):\n${tail}`);
      cleanup().finally(() => process.exit(1));
    }
  });
  const stop = async () => {
    stopping = true;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM'); // every role shuts down cleanly on SIGTERM
    if ((await Promise.race([exited, sleep(5000, 'timeout', { ref: false })])) === 'timeout') child.kill('SIGKILL');
  };
  onCleanup(stop);
  return { pid: child.pid, stop, tail: () => tail };
}

/** Polls GET base/readyz (and `also()`, when given) for up to 60 s. */
export async function waitReady(base, proc, also = () => true) {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(200)) {
    const ready = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
    if (ready && also()) return;
  }
  throw new Error(`${base} not ready after 60 s:\n${proc.tail()}`);
}

/**
 * `svc serve` on a fresh DATA_DIR: API + vault + worker. The first start creates the
 * demo company and its API key, which it writes to DATA_DIR/sandbox-key.txt before listening.
 * Answers spawnSvc's { pid, stop, tail } with the API and vault origins and the key.
 */
export async function startServe(env, svc = SVC) {
  const proc = spawnSvc('serve', env, svc);
  const base = `http://127.0.0.1:${env.PORT}`;
  const keyFile = path.join(env.DATA_DIR, 'sandbox-key.txt');
  const readKey = () => (fs.existsSync(keyFile) ? fs.readFileSync(keyFile, 'utf8').trim() : '');
  await waitReady(base, proc, () => readKey() !== '');
  return { ...proc, base, vaultBase: `http://127.0.0.1:${env.VAULT_PORT}`, key: readKey() };
}

/**
 * A small HTTP client of one origin (undici Pool, keep-alive): post(path, body) with
 * body an object or an already serialized string; answers { status, body } (JSON parsed).
 * localAddress: the source address of its connections (any 127.x.y.z works on loopback).
 */
export function httpClient(base, { key, connections = 16, localAddress } = {}) {
  const pool = new Pool(base, { connections, ...(localAddress && { connect: { localAddress } }) });
  onCleanup(() => pool.destroy());
  return {
    async post(path, body, headers = {}) {
      const res = await pool.request({
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', ...(key && { authorization: `Bearer ${key}` }), ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.body.text();
      let json;
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
      return { status: res.statusCode, body: json };
    },
    close: () => pool.close(),
  };
}

/** The name (comm) and the CPU seconds (user + system) used so far of the process whose /proc/<pid>/stat is `stat`. */
function parseStat(stat) {
  // The name is in parentheses and may hold spaces or ')'; the fields after it are space-separated.
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  return { name: stat.slice(stat.indexOf('(') + 1, close), cpu: (Number(fields[11]) + Number(fields[12])) / 100 }; // utime, stime in clock ticks (USER_HZ, 100 on Linux)
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); undefined elsewhere. */
export function cpuSeconds(pid) {
  try {
    return parseStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')).cpu;
  } catch {
    return undefined;
  }
}

/** CPU seconds of every process of the local PostgreSQL server (comm "postgres"), or undefined off Linux. */
export function postgresCpuSeconds() {
  let dirs;
  try {
    dirs = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return undefined;
  }
  let total = 0;
  for (const pid of dirs) {
    try {
      const { name, cpu } = parseStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
      if (name === 'postgres') total += cpu;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/**
 * CPU milliseconds per unit of work of the service (`pid`), PostgreSQL and this bench process
 * (load generator, and the PSP stand-in or the receiver where there is one) over `work()`.
 * The machine's noise moves flows/s; CPU per flow moves much less, so it is what to compare
 * between two versions of the code. Without `pid` nothing is measured: `cpu` is undefined.
 */
export async function cpuPerUnit(pid, work, units) {
  if (pid === undefined) return { result: await work(), cpu: undefined };
  const before = { svc: cpuSeconds(pid), pg: postgresCpuSeconds(), bench: process.cpuUsage() };
  const result = await work();
  const n = units(result);
  const bench = process.cpuUsage(before.bench);
  const per = (a, b) => (a === undefined || b === undefined || n === 0 ? undefined : ((b - a) * 1000) / n);
  return {
    result,
    cpu: { svc: per(before.svc, cpuSeconds(pid)), pg: per(before.pg, postgresCpuSeconds()), bench: n ? (bench.user + bench.system) / 1000 / n : undefined },
  };
}

/** "svc 0.83 · pg 0.59 · bench 0.10" (ms of CPU per unit), or "-" where a figure is missing. */
export const cpuCell = (cpu) => ['svc', 'pg', 'bench'].map((k) => `${k} ${cpu?.[k] === undefined ? '-' : fmt(cpu[k], 2)}`).join(' · ');

// ---- load and statistics ----
/** Tasks runnable on the machine besides this one (procs_running of /proc/stat, 10 samples over 1 s); NaN off Linux. */
export async function runnableTasks() {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const match = /^procs_running (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'));
    if (!match) return NaN;
    sum += Number(match[1]) - 1; // the bench itself, reading
    await sleep(100);
  }
  return sum / 10;
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
export const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/**
 * Closed loop: `concurrency` lanes each call `task()` again as soon as it settles,
 * until `seconds` have passed or a task returns false (nothing left to send).
 * Returns the elapsed seconds.
 */
export async function closedLoop(concurrency, seconds, task) {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const lane = async () => {
    while (performance.now() < deadline && !isStopping()) if ((await task()) === false) return;
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return (performance.now() - started) / 1000;
}

/** Open loop: starts `task()` `rate` times a second for `seconds`, without waiting for earlier ones. */
export async function openLoop(rate, seconds, task) {
  const started = performance.now();
  const pending = [];
  for (let i = 0; i < Math.round(rate * seconds) && !isStopping(); i++) {
    const due = started + (i * 1000) / rate;
    if (due > performance.now()) await sleep(due - performance.now());
    pending.push(task());
  }
  await Promise.all(pending);
}

/** A table: `header` and rows of cells (strings); columns whose index is in `left` align left. */
export function table(header, rows, left = []) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => cells.map((c, i) => (left.includes(i) ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
