// Part "http": the "create + confirm a Pix intent" flow over HTTP against `svc serve`,
// driven by autocannon (closed loop: one request in flight per connection), on PostgreSQL
// and then on the embedded PGlite.
import crypto from 'node:crypto';
import autocannon from 'autocannon';
import { adminQuery, cpuCell, cpuPerUnit, createDatabase, fmt, parkIfStopping, percentile, serviceEnv, sleep, startServe, table, tempDir } from './lib.mjs';

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

/** Runs `mode` flows for `seconds`; `pid`, when given, is the service's, whose CPU per flow is measured. */
export async function runFlow({ base, key, pid }, mode, connections, seconds) {
  await parkIfStopping();
  const latencies = [];
  const { result, cpu } = await cpuPerUnit(pid, () => autocannon({
    url: base,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${key}` },
    requests: flowRequests(mode, (ns) => latencies.push(Number(ns) / 1e6)),
  }), () => latencies.length);
  latencies.sort((a, b) => a - b);
  return {
    cpu,
    flows: latencies.length,
    flowsPerSec: latencies.length / result.duration,
    reqPerSec: result.requests.total / result.duration,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    // autocannon counts a timeout among its errors too.
    bad: result.non2xx + result.errors,
    non2xx: result.non2xx,
    errors: result.errors - result.timeouts,
    timeouts: result.timeouts,
  };
}

export async function benchHttp({ levels, seconds }) {
  const db = await createDatabase('http');
  console.log(`Starting svc serve on database ${db.name}…`);
  const server = await startServe(await serviceEnv({ databaseUrl: db.url, dataDir: tempDir('http') }));
  console.log(`Warming up (two-step flow, 16 connections, ${Math.min(3, seconds)} s)…`);
  let totalFlows = (await runFlow(server, 'two-step', 16, Math.min(3, seconds))).flows; // warm-up included, for DB transactions per flow

  const rows = [];
  for (const connections of levels) {
    for (const mode of ['one-call', 'two-step']) {
      process.stdout.write(`  service ${mode.padEnd(8)} c=${String(connections).padEnd(3)} ${seconds} s… `);
      const r = await runFlow(server, mode, connections, seconds);
      console.log(`${r.flowsPerSec.toFixed(0)} flows/s`);
      totalFlows += r.flows;
      rows.push({ connections, mode, ...r });
    }
  }
  // Stop the service first so what runs next has the machine to itself, as the service had.
  await server.stop();
  // Backends flush their statistics when they exit, so only now is the count complete.
  await sleep(1000);
  const xacts = await adminQuery('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1', [db.name]);
  return { rows, totalFlows, xactsPerFlow: Number(xacts.rows[0].n) / totalFlows, pglite: await benchPglite(seconds) };
}

/** The embedded default (`npm start`): the one-call flow on PGlite, one connection, then four. */
async function benchPglite(seconds) {
  console.log('Starting svc serve on the embedded PGlite…');
  const { base, key, stop } = await startServe(await serviceEnv({ databaseUrl: undefined, dataDir: tempDir('pglite') }));
  const server = { base, key }; // no pid: the PGlite lines show no CPU figures, so none are measured
  await runFlow(server, 'one-call', 4, Math.min(3, seconds)); // warm-up
  const rows = [];
  for (const connections of [1, 4]) {
    process.stdout.write(`  PGlite one-call c=${connections} ${seconds} s… `);
    const r = await runFlow(server, 'one-call', connections, seconds);
    console.log(`${r.flowsPerSec.toFixed(0)} flows/s`);
    rows.push({ connections, ...r });
  }
  await stop();
  return rows;
}

/** The HTTP table, with the pgbench columns beside it when `tps` (connections → tps) is given. */
export function httpReport({ rows, totalFlows, xactsPerFlow, pglite }, tps) {
  const header = ['conns', 'flow', 'flows/s', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', ...(tps ? ['pgbench tps', 'flows/tps'] : []), 'CPU ms per flow'];
  const cells = rows.map((r) => [
    r.connections, r.mode, fmt(r.flowsPerSec), fmt(r.reqPerSec), fmt(r.p50, 2), fmt(r.p99, 2), r.bad,
    ...(tps ? [fmt(tps.get(r.connections)), fmt(r.flowsPerSec / tps.get(r.connections), 3)] : []),
    cpuCell(r.cpu),
  ].map(String));
  const lines = [
    table(header, cells, [1]),
    '',
    'one-call = POST /v2/payment-intents with confirm: true; two-step = create, then POST …/confirm.',
    'Latency is per flow (both requests for two-step). non-2xx counts non-2xx responses, errors and timeouts.',
    'CPU ms per flow: of the svc serve process, of all PostgreSQL processes and of the bench process (autocannon), /proc.',
    `Note: a one-call flow is one SQL statement and one commit (the intent, the provider's record, the transaction,
its event and deliveries and the Idempotency-Key stored DONE), a two-step flow commits twice (the create, then the confirm with the intent locked); a TPC-B transaction is 1 commit (5 statements).
Concurrent flows share statements and commits (up to 8 sales in one; src/db/statement-batches.ts). Counting all
that PostgreSQL saw (autocommit reads, worker polls, setup), this run made ${xactsPerFlow.toFixed(1)} transactions per
flow (${totalFlows} flows, both kinds and warm-up).`,
  ];
  if (tps) lines.push('flows/tps is a rough yardstick, not a bound; the service pools at most 20 database connections, pgbench opens one per client.');
  const postgresOneCall = (c) => rows.find((r) => r.mode === 'one-call' && r.connections === c)?.flowsPerSec;
  for (const r of pglite ?? []) {
    const ratio = postgresOneCall(r.connections);
    lines.push(
      `PGlite (embedded, npm start) one-call c=${r.connections}: ${fmt(r.flowsPerSec)} flows/s, p50 ${fmt(r.p50, 2)} ms, p99 ${fmt(r.p99, 2)} ms` +
        `${ratio ? `, ${fmt((100 * r.flowsPerSec) / ratio, 0)} % of PostgreSQL at c=${r.connections}` : ''}${r.bad ? ` (${r.bad} non-2xx)` : ''}`,
    );
  }
  const bad = rows.filter((r) => r.bad > 0);
  if (bad.length) lines.push(`WARNING: non-2xx responses or errors at ${bad.map((r) => `c=${r.connections} ${r.mode}`).join(', ')}; those figures are suspect.`);
  return lines.join('\n');
}
