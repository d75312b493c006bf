import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TransactionRow } from '../../db/types.js';
import { canMove, eventOfMove, reversedAmounts, sandboxDecision } from './rules.js';
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
  assert.match(decision.error.message.en, /payment window closed/);
});

test('reversals: the fee kept is F − floor(F × R / A) on the cumulative amount; all of it back cancels', () => {
  const sale = { status: 'PAID', amount_cents: 15_990, fee_cents: 558, net_amount_cents: 15_432, sale_fee_cents: null, refunded_cents: 0, charged_back_cents: 0, charged_back_at: null, canceled_at: null } as unknown as TransactionRow;
  const first = reversedAmounts(sale, { kind: 'REFUND', amountCents: 5_000 }, NOW);
  assert.equal(first.feeReturnedCents, Math.floor((558 * 5_000) / 15_990));
  assert.deepEqual(first.amounts, {
    fee_cents: 558 - 174,
    net_amount_cents: 15_990 - 5_000 - 384,
    sale_fee_cents: 558,
    refunded_cents: 5_000,
    charged_back_cents: 0,
    charged_back_at: null,
    status: 'PAID',
    canceled_at: null,
  });
  const after = { ...sale, ...first.amounts } as TransactionRow;
  const chargeback = reversedAmounts(after, { kind: 'CHARGEBACK', amountCents: 10_990 }, LATER);
  assert.equal(chargeback.feeReturnedCents, 384);
  assert.deepEqual(chargeback.amounts, {
    fee_cents: 0,
    net_amount_cents: 0,
    sale_fee_cents: 558,
    refunded_cents: 5_000,
    charged_back_cents: 10_990,
    charged_back_at: LATER,
    status: 'CANCELED',
    canceled_at: LATER,
  });
});
