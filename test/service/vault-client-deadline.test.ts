/**
 * The API's wait for the vault's authorization is the deadline's time left on
 * the clock the deadline was set on (payment-intents/charge.ts), plus a grace:
 * a clock moved a day ahead of the machine's must not make the API wait a day
 * on a vault that does not answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import { ManualClock } from '../../src/lib/clock.js';
import { AUTHORIZE_ANSWER_GRACE_MS, httpVaultClient } from '../../src/modules/vault/client.js';

test("a vault that never answers is given up on at the deadline plus the grace, read on the deadline's clock", async () => {
  // Accepts every request and never answers.
  const silent = http.createServer(() => undefined);
  silent.listen(0, '127.0.0.1');
  await once(silent, 'listening');
  try {
    const clock = new ManualClock(new Date(Date.now() + 86_400_000));
    const client = httpVaultClient(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, randomBytes(32), clock);
    const started = performance.now();
    const answer = await Promise.race([
      client.authorize({ token: 'vtk_x', intentId: 'pi_x', companyId: 'cmp_x', amountCents: 100, installments: 1, deadline: clock.now().getTime() + 200 }),
      sleep(AUTHORIZE_ANSWER_GRACE_MS + 5_000, 'still waiting' as const),
    ]);
    assert.notEqual(answer, 'still waiting', 'the API waited past the deadline and its grace');
    assert.equal(typeof answer === 'object' && answer.kind, 'unavailable');
    assert.ok(performance.now() - started >= AUTHORIZE_ANSWER_GRACE_MS, 'it waited the grace');
  } finally {
    silent.closeAllConnections();
    silent.close();
  }
});
