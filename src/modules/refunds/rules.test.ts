import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDomainError } from '../../lib/domain-error.js';
import { chargebackAmount, refundAmount } from './rules.js';

const paid = (payment_method: string) => ({ status: 'PAID', payment_method, amount_cents: 10_000, refunded_cents: 0 });
const none = { committedCents: 0, succeededCents: 0, pending: 0 };
const code = (outcome: unknown) => (isDomainError(outcome) ? outcome.code : outcome);

test('a refund takes what is asked, or all that is left; PENDING and SUCCEEDED refunds are spoken for', () => {
  assert.equal(refundAmount(paid('PIX'), none, undefined), 10_000);
  assert.equal(refundAmount(paid('PIX'), none, 2_500), 2_500);
  assert.equal(refundAmount(paid('PIX'), { committedCents: 7_000, succeededCents: 4_000, pending: 1 }, undefined), 3_000);
  const over = refundAmount(paid('PIX'), { committedCents: 7_000, succeededCents: 7_000, pending: 0 }, 3_001);
  assert.ok(isDomainError(over));
  assert.equal(over.code, 'REFUND_EXCEEDS_AVAILABLE');
  assert.deepEqual(over.details?.map((d) => d.field), ['amountCents']);
  assert.equal(code(refundAmount(paid('PIX'), { committedCents: 10_000, succeededCents: 10_000, pending: 0 }, undefined)), 'REFUND_EXCEEDS_AVAILABLE');
});

test('only a PAID card or Pix sale is refundable; a card has one refund PENDING at a time', () => {
  assert.equal(code(refundAmount(paid('BOLETO'), none, undefined)), 'TRANSACTION_NOT_REFUNDABLE');
  for (const status of ['PENDING', 'FAILED', 'CANCELED']) {
    assert.equal(code(refundAmount({ ...paid('PIX'), status }, none, undefined)), 'TRANSACTION_NOT_REFUNDABLE');
  }
  const onePending = { committedCents: 1_000, succeededCents: 0, pending: 1 };
  assert.equal(code(refundAmount(paid('CREDIT_CARD'), onePending, 1_000)), 'REFUND_IN_PROGRESS');
  assert.equal(refundAmount(paid('PIX'), onePending, 1_000), 1_000, 'devoluções have ids of their own: several may be PENDING');
});

test('a chargeback takes all that is left of a PAID card sale, and nothing else', () => {
  assert.equal(chargebackAmount({ ...paid('CREDIT_CARD'), refunded_cents: 2_000 }, none), 8_000);
  assert.equal(code(chargebackAmount(paid('PIX'), none)), 'TRANSACTION_NOT_REFUNDABLE');
  assert.equal(code(chargebackAmount({ ...paid('CREDIT_CARD'), status: 'CANCELED' }, none)), 'TRANSACTION_NOT_REFUNDABLE');
  assert.equal(code(chargebackAmount(paid('CREDIT_CARD'), { committedCents: 1, succeededCents: 0, pending: 1 })), 'REFUND_IN_PROGRESS');
});
