/**
 * Issue 9, defects 2 and 8: card confirms whose API or vault process is
 * SIGKILLed at a random point (at least 50 trials), then restarted, the
 * confirmations left behind recovered as the worker does past the
 * idempotency lease, and the intents never claimed confirmed again.
 * Afterwards: no approved charge stands without a PAID transaction or a
 * recorded reversal, and no card or CVV is left in the database.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { idemKey } from '../helpers/server.js';
import { cardLedger, recoverPastTheLease, startCardDeployment, type CardDeployment, type Json } from './card-deployment.js';

const ROUNDS = 10;
const CONFIRMS_PER_ROUND = 5;

let d: CardDeployment;
before(async () => {
  d = await startCardDeployment();
});
after(() => d?.close());

test(`${ROUNDS * CONFIRMS_PER_ROUND} card confirms with the API or the vault killed at random points: nothing charged without PAID or a reversal, no card or CVV left`, async () => {
  const confirm = (intent: Json, token: string, key: string) =>
    d.call(`/v2/payment-intents/${intent.id}/confirm`, { headers: { 'idempotency-key': key }, body: { token } }).then(
      (res) => res.status,
      () => 0,
    );
  const ready = async (label: string, n: number) => {
    const out: Array<{ intent: Json; token: string }> = [];
    while (out.length < n) out.push(...(await Promise.all(Array.from({ length: Math.min(10, n - out.length) }, () => d.readyCardIntent(label)))));
    return out;
  };
  const confirmAll = (batch: Array<{ intent: Json; token: string }>) => Promise.all(batch.map((b) => confirm(b.intent, b.token, idemKey('kill'))));
  // How long an undisturbed batch of confirms takes (warm): the kills fall anywhere inside it.
  let span = 0;
  for (let i = 0; i < 2; i++) {
    const probes = await ready('probe', CONFIRMS_PER_ROUND);
    const t0 = Date.now();
    assert.deepEqual(await confirmAll(probes), probes.map(() => 201));
    span = Math.max(20, Date.now() - t0);
  }

  const all = await ready('kill', ROUNDS * CONFIRMS_PER_ROUND);
  let kills = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const batch = all.slice(round * CONFIRMS_PER_ROUND, (round + 1) * CONFIRMS_PER_ROUND);
    const target = round % 2 === 0 ? d.vault : d.api;
    const answers = confirmAll(batch);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * span));
    await target.kill();
    kills++;
    await answers;
    await target.start();
  }

  // What the worker does once the lease has run out, then a fresh confirm of the intents no request claimed.
  await recoverPastTheLease(d);
  for (const { intent, token } of all) {
    const got = (await (await d.call(`/v2/payment-intents/${intent.id}`)).json()) as Json;
    if (got.status === 'REQUIRES_TOKEN' || got.status === 'REQUIRES_CONFIRMATION') assert.equal(await confirm(intent, token, idemKey('again')), 201);
  }

  const ledger = await cardLedger(d);
  const statuses: Record<string, number> = {};
  for (const { intent } of all) {
    const got = (await (await d.call(`/v2/payment-intents/${intent.id}`)).json()) as Json;
    statuses[got.status] = (statuses[got.status] ?? 0) + 1;
  }
  console.log(
    `${all.length} trials, ${kills} kills (api and vault alternately, 0-${Math.round(span)} ms into the confirms): approved ${ledger.approved}, reversed ${ledger.reversed}, PAID ${ledger.paid}, cards left ${ledger.cardsLeft}; intents ${JSON.stringify(statuses)}`,
  );
  assert.deepEqual(ledger.orphanApprovals, [], 'no approved charge without a PAID transaction or a recorded reversal');
  assert.equal(ledger.cardsLeft, 0, 'no card or CVV left in the database');
  assert.equal(ledger.approved, ledger.paid + ledger.reversed);
});
