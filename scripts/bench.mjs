#!/usr/bin/env node
// HTTP benchmark of the "create + confirm a Pix intent" flow, set beside a pgbench
// TPC-B baseline on the same PostgreSQL server, so the service's throughput can be
// read relative to what the database alone does on this machine.
// Env: BENCH_DATABASE_URL | TEST_DATABASE_URL (base URL used to create scratch
// databases), BENCH_CONNECTIONS (default 1,4,16,64), BENCH_SECONDS (default 10).
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';

const BASE_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const LEVELS = (process.env.BENCH_CONNECTIONS || '1,4,16,64').split(',').map((s) => Number(s.trim()));
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
if (LEVELS.some((n) => !Number.isInteger(n) || n < 1) || !(SECONDS > 0)) {
  console.error('BENCH_CONNECTIONS must be positive integers separated by commas and BENCH_SECONDS a positive number');
  process.exit(2);
}

// ---- resources to release on every exit path (success, failure, Ctrl-C) ----
const suffix = crypto.randomBytes(4).toString('hex');
const dbNames = { svc: `svc_bench_${suffix}`, pgbench: `svc_bench_${suffix}_pgbench` };
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
const admin = new pg.Client({ connectionString: BASE_URL });
const created = [];
let server; // the service child process
let pgbenchChild; // the running pgbench, if any
let cleaning;
let totalFlows = 0; // completed flows, warm-up included, to compute DB transactions per flow

const dbUrl = (name) => Object.assign(new URL(BASE_URL), { pathname: `/${name}` }).toString();

async function stopServer() {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.stopping = true;
  server.kill('SIGTERM'); // the service shuts down cleanly on SIGTERM
  if ((await Promise.race([exited, sleep(5000, 'timeout')])) === 'timeout') server.kill('SIGKILL');
}

function cleanup() {
  cleaning ??= (async () => {
    pgbenchChild?.kill('SIGKILL');
    await stopServer();
    // FORCE (PostgreSQL 13+) ends sessions still attached, e.g. after a killed pgbench.
    for (const name of created) {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((err) => console.error(`could not drop ${name}: ${err.message}`));
    }
    await admin.end().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the server and dropping the bench databases…`);
    cleanup().finally(() => process.exit(130));
  });
}

// ---- helpers ----
// After Ctrl-C, main() may still be running: park it until cleanup calls process.exit.
const parkIfStopping = () => cleaning && new Promise(() => {});
const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = net.createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function startServer() {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: dbUrl(dbNames.svc), DATA_DIR: dataDir, SVC_ENV: 'sandbox', LOG_LEVEL: 'warn' };
  env.RATE_LIMIT_PER_SECOND = '1000000'; // the sandbox default (25/s) would turn the bench into a 429 test
  // Own process group (detached), so a terminal Ctrl-C reaches only us and we stop it once, cleanly.
  server = spawn(process.execPath, ['bin/svc.js', 'serve'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = ''; // last output, shown if the server dies
  for (const stream of [server.stdout, server.stderr]) stream.on('data', (chunk) => (tail = (tail + chunk).slice(-4000)));
  server.once('exit', (code, signal) => {
    if (!server.stopping) {
      console.error(`server exited unexpectedly (${signal ?? code}):\n${tail}`);
      cleanup().finally(() => process.exit(1));
    }
  });
  // /readyz answers as soon as the API listens; the demo key is written just after, so wait for both.
  const base = `http://127.0.0.1:${port}`;
  const keyFile = path.join(dataDir, 'sandbox-key.txt');
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(200)) {
    const ready = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
    if (ready && fs.existsSync(keyFile)) {
      const key = fs.readFileSync(keyFile, 'utf8').trim();
      if (key) return { base, key };
    }
  }
  throw new Error(`server not ready after 60 s:\n${tail}`);
}

// ---- the two HTTP flows, driven by autocannon (closed loop: one request in flight per connection) ----
const intentBody = (confirm) =>
  JSON.stringify({ amountCents: 10000, paymentMethod: 'PIX', referenceId: `bench-${crypto.randomUUID()}`, buyer: { name: 'Maria', document: '52998224725' }, ...(confirm && { confirm: true }) });

// Flow latency is measured ourselves with hrtime (autocannon's histogram is per request
// and in whole ms): t0 is taken when the flow's first request is built, which autocannon
// does just before writing it (except each connection's very first one, built at connect).
function flowRequests(mode, record) {
  const now = () => process.hrtime.bigint();
  const create = (confirm) => ({
    method: 'POST',
    path: '/v2/payment-intents',
    setupRequest: (req, ctx) => {
      ctx.t0 = now();
      req.headers['content-type'] = 'application/json';
      req.headers['idempotency-key'] = crypto.randomUUID();
      req.body = intentBody(confirm);
      return req;
    },
  });
  if (mode === 'one-call') {
    return [{ ...create(true), onResponse: (status, _body, ctx) => status === 201 && record(now() - ctx.t0) }];
  }
  return [
    { ...create(false), onResponse: (status, body, ctx) => (ctx.id = status === 201 ? JSON.parse(body).id : undefined) },
    {
      method: 'POST',
      // No body and no content-type: Pix confirmation takes none. Returning null when the
      // create failed makes autocannon restart the sequence with a fresh create.
      setupRequest: (req, ctx) => ctx.id && { ...req, path: `/v2/payment-intents/${ctx.id}/confirm`, headers: { ...req.headers, 'idempotency-key': crypto.randomUUID() } },
      onResponse: (status, _body, ctx) => status === 201 && record(now() - ctx.t0),
    },
  ];
}

async function runFlow({ base, key }, mode, connections, seconds) {
  await parkIfStopping();
  const latencies = [];
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${key}` },
    requests: flowRequests(mode, (ns) => latencies.push(Number(ns) / 1e6)),
  });
  latencies.sort((a, b) => a - b);
  totalFlows += latencies.length;
  return {
    flowsPerSec: latencies.length / result.duration,
    reqPerSec: result.requests.total / result.duration,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    bad: result.non2xx + result.errors + result.timeouts,
  };
}

// ---- pgbench TPC-B baseline ----
async function pgbench(args) {
  await parkIfStopping();
  return new Promise((resolve, reject) => {
    let out = '';
    pgbenchChild = spawn('pgbench', [...args, dbUrl(dbNames.pgbench)], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [pgbenchChild.stdout, pgbenchChild.stderr]) stream.on('data', (c) => (out += c));
    pgbenchChild.once('error', reject);
    pgbenchChild.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`pgbench ${args.join(' ')} failed (${code}):\n${out}`))));
  });
}

// ---- main ----
async function main() {
  const loadAtStart = os.loadavg()[0]; // other work on the machine skews every figure below
  await admin.connect();
  const pgVersion = (await admin.query('SELECT version()')).rows[0].version;
  for (const name of Object.values(dbNames)) {
    await admin.query(`CREATE DATABASE ${name}`);
    created.push(name);
  }

  console.log(`Starting the service on database ${dbNames.svc}…`);
  const target = await startServer();
  console.log(`Warming up (two-step flow, 16 connections, ${Math.min(3, SECONDS)} s)…`);
  await runFlow(target, 'two-step', 16, Math.min(3, SECONDS));

  const rows = [];
  for (const connections of LEVELS) {
    for (const mode of ['one-call', 'two-step']) {
      process.stdout.write(`  service ${mode.padEnd(8)} c=${String(connections).padEnd(3)} ${SECONDS} s… `);
      const r = await runFlow(target, mode, connections, SECONDS);
      console.log(`${r.flowsPerSec.toFixed(0)} flows/s`);
      rows.push({ connections, mode, ...r });
    }
  }
  // Stop the service first so pgbench has the machine (2 cores) to itself, as the service had.
  await stopServer();
  // Backends flush their statistics when they exit, so only now is the count complete.
  await sleep(1000);
  const xacts = await admin.query('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1', [dbNames.svc]);
  const xactsPerFlow = Number(xacts.rows[0].n) / totalFlows;

  console.log(`pgbench -i -s 10 on ${dbNames.pgbench}…`);
  await pgbench(['-i', '-s', '10', '-q']);
  const tps = new Map();
  for (const connections of LEVELS) {
    process.stdout.write(`  pgbench c=${String(connections).padEnd(3)} ${SECONDS} s… `);
    // -j 2: one thread per core (pgbench lowers it to the client count itself); -n: no vacuum between runs.
    const out = await pgbench(['-c', String(connections), '-j', '2', '-T', String(Math.ceil(SECONDS)), '-n']);
    const match = out.match(/tps = ([\d.]+) \(without initial connection time\)/);
    if (!match) throw new Error(`no tps line in pgbench output:\n${out}`);
    tps.set(connections, Number(match[1]));
    console.log(`${match[1]} tps`);
  }

  // ---- report ----
  const header = ['conns', 'flow', 'flows/s', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'pgbench tps', 'flows/tps'];
  const table = rows.map((r) => [
    r.connections, r.mode, r.flowsPerSec.toFixed(1), r.reqPerSec.toFixed(1), r.p50.toFixed(2), r.p99.toFixed(2), r.bad,
    tps.get(r.connections).toFixed(1), (r.flowsPerSec / tps.get(r.connections)).toFixed(3),
  ].map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const cpus = os.cpus();
  console.log(`\nMachine: ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.platform()} ${os.release()}`);
  console.log(`Node ${process.version}; ${pgVersion}`);
  console.log(`Each level ran ${SECONDS} s; load generator, service and PostgreSQL share these cores.`);
  console.log(`1-minute load average before the bench: ${loadAtStart.toFixed(2)}${loadAtStart > cpus.length / 2 ? '  (WARNING: the machine was busy; figures are low and noisy)' : ''}\n`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of table) console.log(line(row));
  console.log(`
one-call = POST /v2/payment-intents with confirm: true; two-step = create, then POST …/confirm.
Latency is per flow (both requests for two-step). non-2xx counts non-2xx responses, errors and timeouts.
Note: a flow makes ~3-4 write transactions, a TPC-B transaction is 1 (5 statements). Counting all
that PostgreSQL saw (autocommit reads, worker polls, setup), this run made ${xactsPerFlow.toFixed(1)} transactions per
flow (${totalFlows} flows, both kinds and warm-up). flows/tps is a rough yardstick, not a bound; the
service pools at most 20 database connections, pgbench opens one per client.`);
  const bad = rows.filter((r) => r.bad > 0);
  if (bad.length) console.warn(`\nWARNING: non-2xx responses or errors at ${bad.map((r) => `c=${r.connections} ${r.mode}`).join(', ')}; those figures are suspect.`);
}

try {
  await main();
  await cleanup();
} catch (err) {
  if (!cleaning) console.error(`bench failed: ${err.stack ?? err}`); // else Ctrl-C caused it and is handled
  await cleanup();
  process.exit(1);
}
