/**
 * Issue 9, defect 2: the vault paused (SIGSTOP) across the API's deadline,
 * then resumed. The API gives up and records FAILED; the resumed vault must
 * not charge (it starts no authorization after the deadline): afterwards no
 * approved charge stands without a PAID transaction or a recorded reversal,
 * and no card or CVV is left.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { idemKey } from '../helpers/server.js';
import { cardLedger, startCardDeployment, type CardDeployment, type Json } from './card-deployment.js';

let d: CardDeployment;
before(async () => {
  d = await startCardDeployment();
});
after(() => d?.close());

test('a vault stopped across the deadline charges nothing once resumed; the intent is FAILED', async () => {
  const { intent, token } = await d.readyCardIntent('paused');
  d.vault.proc.child.kill('SIGSTOP');
  const started = Date.now();
  let res: Response;
  try {
    res = await d.call(`/v2/payment-intents/${intent.id}/confirm`, { headers: { 'idempotency-key': idemKey('paused') }, body: { token } });
  } finally {
    d.vault.proc.child.kill('SIGCONT');
  }
  const body = (await res.json()) as Json;
  assert.equal(res.status, 502, JSON.stringify(body));
  assert.equal(body.code, 'PROVIDER_ERROR');
  const waited = Date.now() - started;
  assert.ok(waited < 20_000, `the API gave up after the deadline and its grace (${waited} ms)`);
  // The resumed vault now handles the request it had queued.
  await sleep(3_000);
  const got = (await (await d.call(`/v2/payment-intents/${intent.id}`)).json()) as Json;
  assert.equal(got.status, 'FAILED');
  const ledger = await cardLedger(d);
  assert.deepEqual(ledger.orphanApprovals, [], 'no approved charge without a PAID transaction or a reversal');
  assert.equal(ledger.cardsLeft, 0, 'no card or CVV left');
  console.log(`vault paused ${waited} ms across the deadline: approved ${ledger.approved}, reversed ${ledger.reversed}, paid ${ledger.paid}, cards left ${ledger.cardsLeft}`);
});
