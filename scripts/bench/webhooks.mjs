// Part "webhooks" (issue 4): events delivered per second to a local HTTPS receiver
// with 1, 2 and 4 `svc worker` processes, and the lag from state change to delivery.
//
// Deployment: a fresh database; `svc serve` runs once to create the demo company and
// key, then stops; then one `svc api` and N `svc worker` processes share its env.
// Per N:
//  - throughput: with no worker running, the API makes a backlog of E events (Pix
//    intents created with confirm: true, each one `transaction.created`). The bench then
//    holds an EXCLUSIVE lock on webhook_deliveries, starts the N workers, waits until all
//    N delivery loops are queued on it (their claim is SELECT … FOR UPDATE SKIP LOCKED),
//    and releases it: events/s = E / (last arrival − release). Worker start-up is so
//    left out, and all N workers start draining at the same moment.
//  - lag: with the workers running, events at a steady rate; lag = arrival at the
//    receiver − the event's createdAt (taken when the confirming transaction starts).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';
import {
  adminQuery, closedLoop, cpuSeconds, createDatabase, fmt, httpClient, onCleanup, openLoop, parkIfStopping, percentile,
  postgresCpuSeconds, serviceEnv, sleep, spawnSvc, startServe, table, tempDir, waitReady,
} from './lib.mjs';

/** A certificate for 127.0.0.1, valid one day, made now in a temp folder removed at cleanup. */
async function selfSignedCert() {
  const dir = tempDir('tls');
  const keyFile = path.join(dir, 'k.pem');
  const certFile = path.join(dir, 'c.pem');
  await promisify(execFile)('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile,
    '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1',
  ], { timeout: 30_000 });
  return { certFile, cert: fs.readFileSync(certFile), key: fs.readFileSync(keyFile) };
}

/** HTTPS receiver on 127.0.0.1: answers 200 at once, keeps the first arrival of each X-Svc-Event-Id. */
async function startReceiver(tls) {
  let arrivals = new Map(); // event id → { at: ms, createdAt: ms }
  let duplicates = 0;
  let waiter;
  const server = https.createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const at = Date.now();
      res.writeHead(200, { 'content-length': 0 }).end();
      const id = req.headers['x-svc-event-id'];
      if (arrivals.has(id)) return void duplicates++;
      arrivals.set(id, { at, createdAt: Date.parse(JSON.parse(Buffer.concat(chunks)).createdAt) });
      if (waiter && arrivals.size >= waiter.count) waiter.resolve();
    });
  });
  server.on('tlsClientError', () => {}); // a worker stopped mid-handshake must not crash the bench
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(() => {
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeAllConnections();
    return closed;
  });
  return {
    url: `https://127.0.0.1:${server.address().port}/hook`,
    get arrivals() {
      return arrivals;
    },
    get duplicates() {
      return duplicates;
    },
    reset() {
      arrivals = new Map();
      duplicates = 0;
    },
    /** Resolves true once `count` distinct events arrived, false after `timeoutMs`. */
    waitFor(count, timeoutMs) {
      if (arrivals.size >= count) return Promise.resolve(true);
      return Promise.race([new Promise((resolve) => (waiter = { count, resolve: () => resolve(true) })), sleep(timeoutMs, false, { ref: false })]).finally(() => (waiter = undefined));
    },
  };
}

const pixIntent = () => ({ amountCents: 10000, paymentMethod: 'PIX', referenceId: `bench-${crypto.randomUUID()}`, buyer: { name: 'Maria', document: '52998224725' }, confirm: true });

/** POST one confirmed Pix intent (one transaction.created event); true when it was created. */
async function createEvent(api) {
  const r = await api.post('/v2/payment-intents', pixIntent(), { 'idempotency-key': crypto.randomUUID() });
  return r.status === 201;
}

/** Makes `count` events through the API, 16 requests in flight; returns the seconds it took. */
async function createBacklog(api, count) {
  let issued = 0;
  let failed = 0;
  return closedLoop(16, Infinity, async () => {
    if (issued >= count) return false;
    issued++;
    if (!(await createEvent(api))) {
      issued--;
      if (++failed > 50) throw new Error('more than 50 failed intent creations while making the webhook backlog');
    }
  });
}

/** Blocks every delivery claim (EXCLUSIVE conflicts with the ROW SHARE of SELECT … FOR UPDATE) until release(). */
async function holdDeliveries(url) {
  const lock = new pg.Client({ connectionString: url });
  lock.on('error', () => {}); // ended by DROP DATABASE … WITH (FORCE) if the bench stops meanwhile
  await lock.connect();
  let held = true;
  onCleanup(() => held && lock.end());
  await lock.query('BEGIN');
  await lock.query('LOCK TABLE webhook_deliveries IN EXCLUSIVE MODE');
  return async () => {
    await lock.query('COMMIT');
    held = false;
    await lock.end();
  };
}

/** Polls pg_stat_activity until `n` sessions of `dbName` wait on a lock in the delivery claim. */
async function waitForQueuedClaims(dbName, n) {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(50)) {
    const { rows } = await adminQuery(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND query ILIKE '%skip locked%'`,
      [dbName],
    );
    if (rows[0].n >= n) return;
  }
  throw new Error(`${n} workers did not queue on webhook_deliveries within 60 s`);
}

export async function benchWebhooks({ workerCounts, events, lagRate, lagSeconds }) {
  const db = await createDatabase('webhooks');
  const tls = await selfSignedCert();
  const receiver = await startReceiver(tls);
  const env = await serviceEnv({
    databaseUrl: db.url,
    dataDir: tempDir('webhooks'),
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    NODE_EXTRA_CA_CERTS: tls.certFile, // the workers trust the receiver's self-signed certificate
  });
  console.log(`Webhooks on database ${db.name}: svc serve once for the demo key…`);
  const serve = await startServe(env);
  await serve.stop();
  const apiProc = spawnSvc('api', env);
  const base = `http://127.0.0.1:${env.PORT}`;
  await waitReady(base, apiProc);
  const api = httpClient(base, { key: serve.key, connections: 16 });
  const hook = await api.post('/v2/webhooks', { url: receiver.url, events: ['transaction.created'] });
  if (hook.status !== 201) throw new Error(`webhook registration failed (${hook.status}): ${JSON.stringify(hook.body)}`);

  const rows = [];
  for (const n of workerCounts) {
    await parkIfStopping();
    receiver.reset();
    process.stdout.write(`  webhooks N=${n}: backlog of ${events} events… `);
    const backlogSeconds = await createBacklog(api, events);
    process.stdout.write(`made in ${backlogSeconds.toFixed(1)} s; draining… `);

    const release = await holdDeliveries(db.url);
    const workers = Array.from({ length: n }, () => spawnSvc('worker', env));
    await waitForQueuedClaims(db.name, n);
    const cpuBefore = { workers: workers.map((w) => cpuSeconds(w.pid)), pg: postgresCpuSeconds(), bench: process.cpuUsage() };
    const released = Date.now();
    await release();
    const drained = await receiver.waitFor(events, 120_000);
    const received = receiver.arrivals.size;
    const perEvent = (seconds) => (seconds * 1000) / received;
    const cpu = {
      workers: perEvent(workers.reduce((sum, w, i) => sum + cpuSeconds(w.pid) - cpuBefore.workers[i], 0)),
      pg: perEvent(postgresCpuSeconds() - cpuBefore.pg),
      bench: perEvent(Object.values(process.cpuUsage(cpuBefore.bench)).reduce((a, b) => a + b, 0) / 1e6),
    };
    const last = Math.max(...[...receiver.arrivals.values()].map((a) => a.at));
    const perSec = received / ((last - released) / 1000);
    const drainDuplicates = receiver.duplicates;
    console.log(`${perSec.toFixed(0)} events/s${drained ? '' : ` (only ${received} of ${events} within 120 s)`}`);

    receiver.reset();
    process.stdout.write(`  webhooks N=${n}: lag at ${lagRate} events/s for ${lagSeconds} s… `);
    let made = 0;
    await openLoop(lagRate, lagSeconds, async () => void ((await createEvent(api)) && made++));
    const allLagged = await receiver.waitFor(made, 30_000);
    const lags = [...receiver.arrivals.values()].map((a) => a.at - a.createdAt).sort((a, b) => a - b);
    console.log(`p50 ${fmt(percentile(lags, 50), 0)} ms, p99 ${fmt(percentile(lags, 99), 0)} ms${allLagged ? '' : ` (only ${lags.length} of ${made} arrived within 30 s)`}`);
    await Promise.all(workers.map((w) => w.stop()));
    rows.push({
      n, events, received, perSec, cpu, backlogSeconds, made, lagged: lags.length, duplicates: drainDuplicates + receiver.duplicates,
      p50: percentile(lags, 50), p99: percentile(lags, 99), max: lags.at(-1),
    });
  }
  await apiProc.stop();
  const check = new pg.Client({ connectionString: db.url });
  await check.connect();
  const byState = (await check.query('SELECT state, count(*)::int AS n FROM webhook_deliveries GROUP BY state ORDER BY state')).rows;
  await check.end();
  return { rows, lagRate, lagSeconds, byState };
}

export function webhooksReport({ rows, lagRate, lagSeconds, byState }) {
  const header = ['workers', 'backlog', 'received', 'events/s', 'CPU ms per event', 'lag events', 'lag p50 ms', 'lag p99 ms', 'lag max ms', 'duplicates'];
  const cells = rows.map((r) => [r.n, r.events, r.received, fmt(r.perSec), `workers ${fmt(r.cpu.workers, 2)} · pg ${fmt(r.cpu.pg, 2)} · bench ${fmt(r.cpu.bench, 2)}`, `${r.lagged}/${r.made}`, fmt(r.p50, 0), fmt(r.p99, 0), fmt(r.max, 0), r.duplicates].map(String));
  return [
    table(header, cells),
    '',
    `events/s: a backlog of transaction.created events made through the API with no worker running, then drained by
N \`svc worker\` processes, from the moment all N claims start (a table lock they queued on is released) to the last
arrival at the HTTPS receiver (127.0.0.1, self-signed certificate, answers 200 at once; it runs in the bench process).
CPU ms per event over the drain: of the N workers together, of PostgreSQL, and of the bench process (the receiver).
Lag: ${lagRate} events/s for ${lagSeconds} s (open loop through the API) with the N workers idle and polling; arrival time −
the event's createdAt (ms clock, stamped when the confirming transaction starts, so commit time is included).
Each worker keeps up to 256 deliveries in flight, claims more as sends finish, and records outcomes in one transaction per
128 or per 20 ms (src/workers/deliver-webhooks.ts); when nothing is due it sleeps 100 ms, so an idle worker adds 0-100 ms
to the lag (more workers poll more often, but each is one more process, with its own 1 s maintenance loop, on the same
cores). API, workers, receiver and PostgreSQL share the machine's cores.`,
    `Deliveries by state at the end: ${byState.map((s) => `${s.state} ${s.n}`).join(', ')}.`,
  ].join('\n');
}
