/**
 * Stall the database silently: the proxy between the service and PostgreSQL
 * stops forwarding bytes without closing anything, as a dead network path
 * does. Requests must answer 503 within seconds (the client-side query and
 * connect timeouts) instead of hanging for the length of the stall;
 * transactions cut mid-flight must not stay "idle in transaction" holding
 * their locks (the server's idle_in_transaction_session_timeout ends them);
 * after healing, the service answers again by itself, and nothing is lost or
 * duplicated.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { idemKey } from '../helpers/server.js';
import { pixIntent } from '../helpers/fixtures.js';
import { checkLedger } from './helpers/ledger.js';
import { count, startLoad, type Load } from './helpers/load.js';
import { DATABASE, exitedProcesses, startStack, type ApiNode, type Stack } from './helpers/stack.js';

const CLIENTS = 3;
const PROBES = 3;
const WARM_UP_MS = 1_500;
/** The stall lasts at least this long: more than the idle-in-transaction timeout (5 s) plus a margin. */
const STALL_MS = 10_000;
/** "Within a few seconds": the query timeout is 6 s and the connect timeout 3 s; without them a request waits out the stall. */
const MAX_TIME_TO_503_MS = 8_000;
const PROBE_DEADLINE_MS = 20_000;
const RECOVERY_LIMIT_MS = 20_000;

let stack: Stack | undefined;
let load: Load | undefined;

before(async () => {
  stack = await startStack({ apiCount: 1 });
});

after(async () => {
  await load?.stop();
  stack?.proxy.heal();
  await stack?.teardown();
});

/** One create with a fresh key; its status and how long it took (status 0: no answer within the deadline). */
async function probe(node: ApiNode): Promise<{ status: number; ms: number; retryAfter: string | null }> {
  const started = Date.now();
  try {
    const res = await node.api('/v2/payment-intents', {
      body: pixIntent({ referenceId: 'stall-probe' }),
      headers: { 'idempotency-key': idemKey('stall-probe') },
      signal: AbortSignal.timeout(PROBE_DEADLINE_MS),
    });
    await res.text();
    return { status: res.status, ms: Date.now() - started, retryAfter: res.headers.get('retry-after') };
  } catch {
    return { status: 0, ms: Date.now() - started, retryAfter: null };
  }
}

/**
 * Sessions idle inside a transaction for at least `forMs` (0: any). A live
 * transaction is idle for a moment between its statements; one left behind
 * stays idle.
 */
async function idleInTransaction(stack: Stack, forMs = 0): Promise<number> {
  const rows = await stack.cluster.query<{ n: string }>(
    `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND state LIKE 'idle in transaction%' AND now() - state_change >= $2 * interval '1 millisecond'`,
    [DATABASE, forMs],
  );
  return Number(rows[0]!.n);
}

test('stall the database silently: 503 within seconds, no session left idle in transaction, recovery after healing', async () => {
  const { apis, proxy } = stack!;
  const node = apis[0]!;
  load = startLoad(Array.from({ length: CLIENTS }, (_, c) => ({ node, label: `stall-${c}` })));
  const { stats } = load;
  assert.ok((await load.warmUp(WARM_UP_MS)) > 0, 'the load confirmed intents before the stall');

  proxy.stall();
  const stalledAt = Date.now();
  // Sessions idle in transaction, watched straight on the cluster while the network is stalled.
  let maxIdleInTransaction = 0;
  let lastIdleInTransaction = 0;
  const watching = (async () => {
    while (proxy.mode() === 'stall') {
      lastIdleInTransaction = await idleInTransaction(stack!);
      maxIdleInTransaction = Math.max(maxIdleInTransaction, lastIdleInTransaction);
      await sleep(250);
    }
  })();
  const probes = await Promise.all(Array.from({ length: PROBES }, () => probe(node)));
  const unavailableDuringStall = count(stats, 503);
  await sleep(Math.max(0, STALL_MS - (Date.now() - stalledAt)));
  const idleBeforeHeal = lastIdleInTransaction;
  proxy.heal();
  await watching;
  const healedAt = Date.now();

  // Recovery: a fresh create answers 201 again.
  let recoveredMs: number | undefined;
  while (recoveredMs === undefined && Date.now() - healedAt < RECOVERY_LIMIT_MS) {
    if ((await probe(node)).status === 201) recoveredMs = Date.now() - healedAt;
    else await sleep(250);
  }
  await sleep(1_000);
  await load.stop();
  // The worker keeps running: a transaction caught between two statements is not one left behind.
  const idleAfterHeal = await idleInTransaction(stack!, 1_000);
  const ledger = await checkLedger(stack!.cluster, DATABASE, stats.confirmed);

  const figures = {
    requests: stats.requests + probes.length,
    statuses: Object.fromEntries(stats.byStatus),
    keyInUse: stats.keyInUse,
    probes,
    slowestLoadRequestMs: stats.slowest.ms,
    timeTo503Ms: Math.max(...probes.map((p) => p.ms)),
    unavailableDuringStall,
    maxIdleInTransaction,
    idleBeforeHeal,
    idleAfterHeal,
    recoveredMs,
    lost: ledger.lost.length,
    duplicated: ledger.duplicated.length,
  };
  console.log(`database stall figures: ${JSON.stringify(figures)}`);

  assert.deepEqual(exitedProcesses(stack!), [], 'every svc process is still running');
  for (const p of probes) {
    assert.equal(p.status, 503, `a request during the stall answers 503 (${JSON.stringify(figures)})`);
    assert.ok(p.ms <= MAX_TIME_TO_503_MS, `503 within ${MAX_TIME_TO_503_MS} ms, took ${p.ms} ms`);
    assert.ok(Number(p.retryAfter) >= 1, 'with Retry-After');
  }
  assert.ok(stats.slowest.ms <= MAX_TIME_TO_503_MS, `every request of the load was answered within ${MAX_TIME_TO_503_MS} ms, the slowest took ${stats.slowest.ms} ms`);
  assert.deepEqual([...new Set(stats.badUnavailable)], [], 'every 503 has Retry-After, X-Request-Id and the contract body');
  assert.deepEqual(stats.unexpected, [], 'only 201, 503 and 409 IDEMPOTENCY_KEY_IN_USE were answered');
  assert.equal(idleBeforeHeal, 0, 'the server ended every session left idle in transaction while the network was stalled');
  assert.equal(idleAfterHeal, 0, 'no session idle in transaction after healing');
  assert.ok(recoveredMs !== undefined, 'requests succeed again after healing');
  assert.deepEqual(ledger.lost, [], 'every confirm answered 201 has its transaction');
  assert.deepEqual(ledger.duplicated, [], 'no intent has two transactions');
});
