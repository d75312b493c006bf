/**
 * Restart PostgreSQL under bounded load: 6 clients on 2 `svc api` processes
 * create and confirm Pix intents (retrying 503 with the same Idempotency-Key)
 * while `pg_ctl restart -m fast` terminates every session (57P01) and the
 * server is gone for a moment. No process may exit, the outage must be
 * answered 503 with Retry-After and the contract's body, the service must
 * resume by itself, and every confirm answered 201 must have exactly one
 * transaction.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkLedger } from './helpers/ledger.js';
import { count, startLoad, type Load } from './helpers/load.js';
import { DATABASE, exitedProcesses, startStack, type Stack } from './helpers/stack.js';

const CLIENTS_PER_API = 3;
const WARM_UP_MS = 2_000;
/** Load kept on after the first confirm that succeeds after the restart. */
const AFTER_RECOVERY_MS = 2_000;
const RECOVERY_LIMIT_MS = 20_000;

let stack: Stack | undefined;
let load: Load | undefined;

before(async () => {
  stack = await startStack({ apiCount: 2 });
});

after(async () => {
  await load?.stop();
  await stack?.teardown();
});

test('restart PostgreSQL under bounded load: no process exits, 503 during the outage, nothing lost or duplicated', async () => {
  const { apis, cluster } = stack!;
  load = startLoad(apis.flatMap((node, n) => Array.from({ length: CLIENTS_PER_API }, (_, c) => ({ node, label: `restart-${n}-${c}` }))));
  const { stats } = load;
  const confirmedBefore = await load.warmUp(WARM_UP_MS);
  assert.ok(confirmedBefore > 0, 'the load confirmed intents before the restart');
  const restartStarted = Date.now();
  await cluster.restart();
  const restarted = Date.now();
  const unavailableAtRestart = count(stats, 503);

  // Service resumes by itself: a confirm answered 201 after the server is back.
  const confirmedAtRestart = stats.confirmed.size;
  while (stats.confirmed.size === confirmedAtRestart && Date.now() - restarted < RECOVERY_LIMIT_MS) await sleep(50);
  const recoveredMs = Date.now() - restarted;
  await sleep(AFTER_RECOVERY_MS);
  await load.stop();

  const ledger = await checkLedger(cluster, DATABASE, stats.confirmed);
  const figures = {
    requests: stats.requests,
    statuses: Object.fromEntries(stats.byStatus),
    confirmed: stats.confirmed.size,
    keyInUse: stats.keyInUse,
    restartMs: restarted - restartStarted,
    unavailableAtRestart,
    recoveredMs,
    lost: ledger.lost.length,
    duplicated: ledger.duplicated.length,
  };
  console.log(`postgres restart figures: ${JSON.stringify(figures)}`);

  assert.deepEqual(exitedProcesses(stack!), [], 'every svc process is still running');
  assert.ok(count(stats, 503) > 0, `the outage was answered 503 (${JSON.stringify(figures)})`);
  assert.deepEqual([...new Set(stats.badUnavailable)], [], 'every 503 has Retry-After, X-Request-Id and the contract body');
  assert.deepEqual(stats.unexpected, [], 'only 201, 503 and 409 IDEMPOTENCY_KEY_IN_USE were answered');
  assert.ok(recoveredMs < RECOVERY_LIMIT_MS, `confirms succeed again after the restart (${recoveredMs} ms)`);
  assert.deepEqual(ledger.lost, [], 'every confirm answered 201 has its transaction');
  assert.deepEqual(ledger.duplicated, [], 'no intent has two transactions');
  assert.deepEqual(ledger.mismatched, [], 'the transaction answered is the one stored');
});
