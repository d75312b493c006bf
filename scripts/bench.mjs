#!/usr/bin/env node
// `npm run bench`: the service's throughput on this machine, each part on its own
// fresh PostgreSQL database (all dropped at the end, also on failure or Ctrl-C):
//   http      Pix create+confirm over HTTP against `svc serve` at several concurrencies
//             (PostgreSQL, then the embedded PGlite)
//   pgbench   a TPC-B baseline on the same PostgreSQL server, beside the http figures
//   production  the same flow with SVC_ENV=production through bcb-api-pix to the tests' local PSP
//   slow-psp  the production flow with the local PSP holding each answer 200 ms, at 256 clients, beside
//             the same build with an instant PSP at 64 clients (issue 28)   — scripts/bench/slow-psp.mjs
//   webhooks  events delivered per second with 1, 2, 4 `svc worker` processes, and the
//             lag from state change to delivery (issue 4)           — scripts/bench/webhooks.mjs
//   tokenize  vault POST /tokenize per second beside `openssl speed rsa2048` (issue 5)
//   dashboard the dashboard's search p95 per kind of key, its home's p95 (issue 35) and its CSV
//             export's rows per second and memory, over one company with 1,000,000 transactions
//             (issue 27) — scripts/bench/dashboard.mjs
// Env:
//   BENCH_PARTS              parts to run, comma-separated (default http,pgbench,production,slow-psp,webhooks,tokenize,dashboard)
//   BENCH_DATABASE_URL | TEST_DATABASE_URL  base URL used to create the scratch databases
//   BENCH_CONNECTIONS        http and pgbench client counts (default 1,4,16,64)
//   BENCH_SECONDS            seconds per http/pgbench level, webhook lag run and tokenize run (default 10)
//   BENCH_PSP_DELAY_MS       slow-psp: how long the local PSP holds each answer (default 200)
//   BENCH_PSP_BUYERS         slow-psp: clients buying from the slow PSP (default 256)
//   BENCH_PSP_BASELINE       slow-psp: clients buying from the instant PSP, the rate compared with (default 64)
//   BENCH_WEBHOOK_WORKERS    worker process counts (default 1,2,4)
//   BENCH_WEBHOOK_EVENTS     backlog drained per worker count (default 5000; the API makes it, ~7 s each;
//                            a drain of under a second would mostly measure the worker's JIT and TLS warm-up)
//   BENCH_WEBHOOK_LAG_RATE   events per second during the lag run (default 50)
//   BENCH_TOKENIZE_CONNECTIONS  concurrent /tokenize requests (default 8)
//   BENCH_DASHBOARD_ROWS     transactions of the dashboard's company (default 1000000; seeding them takes ~1 minute)
//   BENCH_DASHBOARD_SEARCHES searches timed per kind of key (default 200)
//   BENCH_PROFILE            a folder: every service process started writes a V8 CPU profile there when it stops
// The default run takes about 8 minutes.
import os from 'node:os';
import { adminQuery, cleanup, installSignalHandlers, isStopping, runnableTasks } from './bench/lib.mjs';
import { benchHttp, httpReport } from './bench/http.mjs';
import { benchPgbench, pgbenchReport } from './bench/pgbench.mjs';
import { benchProduction, productionReport } from './bench/production.mjs';
import { benchSlowPsp, slowPspReport } from './bench/slow-psp.mjs';
import { benchTokenize, tokenizeReport } from './bench/tokenize.mjs';
import { benchWebhooks, webhooksReport } from './bench/webhooks.mjs';
import { benchDashboard, dashboardReport } from './bench/dashboard.mjs';

const ALL_PARTS = ['http', 'pgbench', 'production', 'slow-psp', 'webhooks', 'tokenize', 'dashboard'];
const list = (name, fallback) => (process.env[name] || fallback).split(',').map((s) => s.trim()).filter(Boolean);
const positiveIntegers = (name, fallback) => {
  const values = list(name, fallback).map(Number);
  if (values.length === 0 || values.some((n) => !Number.isInteger(n) || n < 1)) usage(`${name} must be positive integers separated by commas`);
  return values;
};
function usage(message) {
  console.error(message);
  process.exit(2);
}

const PARTS = list('BENCH_PARTS', ALL_PARTS.join(','));
if (PARTS.some((p) => !ALL_PARTS.includes(p))) usage(`BENCH_PARTS: choose among ${ALL_PARTS.join(', ')}`);
const LEVELS = positiveIntegers('BENCH_CONNECTIONS', '1,4,16,64');
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
if (!(SECONDS > 0)) usage('BENCH_SECONDS must be a positive number');
const [EVENTS] = positiveIntegers('BENCH_WEBHOOK_EVENTS', '5000');
const [LAG_RATE] = positiveIntegers('BENCH_WEBHOOK_LAG_RATE', '50');
const [TOKENIZE_CONNECTIONS] = positiveIntegers('BENCH_TOKENIZE_CONNECTIONS', '8');
if (TOKENIZE_CONNECTIONS > 200) usage('BENCH_TOKENIZE_CONNECTIONS: at most 200 (one loopback source address each)');
const [PSP_DELAY_MS] = positiveIntegers('BENCH_PSP_DELAY_MS', '200');
const [PSP_BUYERS] = positiveIntegers('BENCH_PSP_BUYERS', '256');
const [PSP_BASELINE] = positiveIntegers('BENCH_PSP_BASELINE', '64');
const WORKERS = positiveIntegers('BENCH_WEBHOOK_WORKERS', '1,2,4');
const [DASHBOARD_ROWS] = positiveIntegers('BENCH_DASHBOARD_ROWS', '1000000');
const [DASHBOARD_SEARCHES] = positiveIntegers('BENCH_DASHBOARD_SEARCHES', '200');

installSignalHandlers();

let partsRun = 0;
/**
 * Runs one part, noting the load before it: other work on the machine skews every figure.
 * The 1-minute load average still counts the previous part's own processes for a while,
 * so the tasks runnable right now (other than the bench) are noted too.
 */
async function part(name, run) {
  if (!PARTS.includes(name) || isStopping()) return undefined;
  console.log(`\n== ${name} ==`);
  const load = os.loadavg()[0];
  const runnable = await runnableTasks();
  const first = partsRun++ === 0; // before any part, the load average is all other work
  const busy = runnable > os.cpus().length / 2 || (first && load > os.cpus().length / 2);
  const result = await run();
  return { load, runnable, busy, loadAfter: os.loadavg()[0], result };
}

async function main() {
  const pgVersion = (await adminQuery('SELECT version()')).rows[0].version;
  const http = await part('http', () => benchHttp({ levels: LEVELS, seconds: SECONDS }));
  const pgbench = await part('pgbench', () => benchPgbench({ levels: LEVELS, seconds: SECONDS }));
  const production = await part('production', () => benchProduction({ levels: LEVELS, seconds: SECONDS }));
  const slowPsp = await part('slow-psp', () => benchSlowPsp({ seconds: SECONDS, delayMs: PSP_DELAY_MS, buyers: PSP_BUYERS, baseline: PSP_BASELINE }));
  const webhooks = await part('webhooks', () => benchWebhooks({ workerCounts: WORKERS, events: EVENTS, lagRate: LAG_RATE, lagSeconds: SECONDS }));
  const tokenize = await part('tokenize', () => benchTokenize({ concurrency: TOKENIZE_CONNECTIONS, seconds: SECONDS, opensslSeconds: Math.min(5, Math.ceil(SECONDS)) }));
  const dashboard = await part('dashboard', () => benchDashboard({ rows: DASHBOARD_ROWS, searches: DASHBOARD_SEARCHES }));

  // ---- report ----
  const cpus = os.cpus();
  const loadNote = ({ load, runnable, busy }, what = 'this part') =>
    `Before ${what}: 1-minute load average ${load.toFixed(2)}, other runnable tasks ${runnable.toFixed(1)} (mean over 1 s)` +
    `${busy ? '  (WARNING: the machine was busy; figures are low and noisy)' : ''}`;
  const loadAfter = ({ loadAfter }) => `At its end: 1-minute load average ${loadAfter.toFixed(2)} (counting its own processes, ~2 when it kept both cores busy)`;
  console.log(`\nMachine: ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.platform()} ${os.release()}`);
  console.log(`Node ${process.version}; ${pgVersion}`);
  console.log('Load generator, service and PostgreSQL share these cores.');
  if (http) {
    console.log(`\n-- HTTP: Pix create+confirm, ${SECONDS} s per level${pgbench ? ', beside pgbench TPC-B' : ''} --\n${loadNote(http)}${pgbench ? `\n${loadNote(pgbench, 'pgbench')}` : ''}\n`);
    console.log(httpReport(http.result, pgbench?.result));
  } else if (pgbench) {
    console.log(`\n-- pgbench, ${SECONDS} s per level --\n${loadNote(pgbench)}\n`);
    console.log(pgbenchReport(pgbench.result));
  }
  if (production) {
    console.log(`\n-- Production path: Pix create+confirm through bcb-api-pix to the local PSP --\n${loadNote(production)}\n`);
    console.log(productionReport(production.result, pgbench?.result));
  }
  if (slowPsp) {
    console.log(`\n-- Production path under a slow PSP: ${PSP_DELAY_MS} ms per answer, ${PSP_BUYERS} buyers --\n${loadNote(slowPsp)}\n`);
    console.log(slowPspReport(slowPsp.result));
  }
  if (webhooks) console.log(`\n-- Webhooks (issue 4) --\n${loadNote(webhooks)}\n${loadAfter(webhooks)}\n\n${webhooksReport(webhooks.result)}`);
  if (tokenize) console.log(`\n-- Tokenize (issue 5) --\n${loadNote(tokenize)}\n${loadAfter(tokenize)}\n\n${tokenizeReport(tokenize.result)}`);
  if (dashboard) console.log(`\n-- Dashboard: search, home and CSV export (issues 27 and 35) --\n${loadNote(dashboard)}\n\n${dashboardReport(dashboard.result)}`);
}

try {
  await main();
  await cleanup();
} catch (err) {
  if (!isStopping()) console.error(`bench failed: ${err.stack ?? err}`); // else Ctrl-C caused it and is handled
  await cleanup();
  process.exit(1);
}
