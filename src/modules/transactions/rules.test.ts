import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canMove, eventOfMove, sandboxDecision } from './rules.js';
import { TRANSACTION_STATUSES } from './schemas.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const LATER = new Date(NOW.getTime() + 60_000);

test('only a PENDING transaction moves; PAID, CANCELED and FAILED are final', () => {
  assert.deepEqual(TRANSACTION_STATUSES.filter(canMove), ['PENDING']);
});

test('paid emits transaction.paid; canceled and a refused card (FAILED) emit transaction.canceled', () => {
  assert.equal(eventOfMove('PAID'), 'transaction.paid');
  assert.equal(eventOfMove('CANCELED'), 'transaction.canceled');
  assert.equal(eventOfMove('FAILED'), 'transaction.canceled');
});

test('sandbox pay and fail: move a PENDING one, answer a PAID one paid again unchanged, refuse the rest', () => {
  const open = { status: 'PENDING', cancel_at: LATER };
  assert.equal(sandboxDecision(open, 'PAID', NOW).kind, 'move');
  assert.equal(sandboxDecision(open, 'CANCELED', NOW).kind, 'move');
  assert.equal(sandboxDecision({ status: 'PAID', cancel_at: null }, 'PAID', NOW).kind, 'unchanged');
  for (const [status, to] of [['PAID', 'CANCELED'], ['CANCELED', 'PAID'], ['FAILED', 'PAID']] as const) {
    const decision = sandboxDecision({ status, cancel_at: null }, to, NOW);
    assert.ok(decision.kind === 'refuse');
    assert.equal(decision.error.code, 'TRANSACTION_NOT_PENDING');
  }
});

test('a PENDING transaction whose payment window closed is canceled first, and the caller told why', () => {
  const decision = sandboxDecision({ status: 'PENDING', cancel_at: NOW }, 'PAID', NOW);
  assert.ok(decision.kind === 'expire');
  assert.equal(decision.error.code, 'TRANSACTION_NOT_PENDING');
  assert.match(decision.error.message, /payment window closed/);
});
