/**
 * Pure rules of refunds: what may be refunded, and when a PENDING refund is
 * looked at again. No clock and no I/O.
 *
 *   PENDING ──provider gave the money back──▶ SUCCEEDED (refund.succeeded; receivables reversed;
 *                                              all of the sale back: CANCELED + transaction.canceled)
 *   PENDING ──provider refused──▶ FAILED (refund.failed; nothing changes)
 */
import type { TransactionRow } from '../../db/types.js';
import { DomainError, type Outcome } from '../../lib/domain-error.js';
import type { RefundTotals } from './repo.js';

/**
 * How long after asking the provider a PENDING refund whose answer never came
 * is resolved by the worker: longer than any provider call may last, so no
 * call is still in flight when the worker reads the provider's record.
 */
export const ASK_WINDOW_MS = 120_000;
/** How often a refund the provider is still processing (a Pix devolução EM_PROCESSAMENTO) is asked about. */
export const FOLLOW_INTERVAL_MS = 15_000;

const notRefundable = (message: string) => new DomainError('TRANSACTION_NOT_REFUNDABLE', message);

/** Why this transaction cannot be refunded or charged back at all (boleto, not PAID); undefined when it can. */
function refusal(row: Pick<TransactionRow, 'status' | 'payment_method'>): DomainError | undefined {
  if (row.payment_method === 'BOLETO') {
    return notRefundable('A boleto cannot be refunded: no rail gives money back through a boleto; pay the buyer back by Pix or bank transfer');
  }
  if (row.status !== 'PAID') return notRefundable(`The transaction is ${row.status}; only a PAID transaction can be refunded`);
  return undefined;
}

/** A card refund is one void at a time: the acquirer keeps only a total voided per sale, by which a lost answer is resolved. */
function cardRefundRunning(row: Pick<TransactionRow, 'payment_method'>, totals: RefundTotals): DomainError | undefined {
  if (row.payment_method !== 'CREDIT_CARD' || totals.pending === 0) return undefined;
  return new DomainError('REFUND_IN_PROGRESS', 'Another refund of this card transaction is still being processed; retry when it is SUCCEEDED or FAILED');
}

/**
 * The amount of a new refund: `requested`, or all that is left when absent.
 * Left = amount − PENDING and SUCCEEDED refunds (a PENDING one may still
 * succeed, so it is spoken for).
 */
export function refundAmount(row: Pick<TransactionRow, 'status' | 'payment_method' | 'amount_cents'>, totals: RefundTotals, requested: number | undefined): Outcome<number> {
  const refused = refusal(row) ?? cardRefundRunning(row, totals);
  if (refused) return refused;
  const left = row.amount_cents - totals.committedCents;
  if (left <= 0) return new DomainError('REFUND_EXCEEDS_AVAILABLE', 'Nothing is left to refund: every centavo of the sale is refunded or being refunded');
  const amount = requested ?? left;
  if (amount > left) {
    return new DomainError('REFUND_EXCEEDS_AVAILABLE', `The refund exceeds what is left to refund (${left} centavos)`, [
      { field: 'amountCents', message: `must be at most ${left}: the sale's amount less its PENDING and SUCCEEDED refunds` },
    ]);
  }
  return amount;
}

/** What a sandbox chargeback takes back: all that is left of a PAID card sale. */
export function chargebackAmount(row: Pick<TransactionRow, 'status' | 'payment_method' | 'amount_cents' | 'refunded_cents'>, totals: RefundTotals): Outcome<number> {
  if (row.payment_method !== 'CREDIT_CARD') return notRefundable('Only a card transaction can be charged back');
  return refusal(row) ?? cardRefundRunning(row, totals) ?? row.amount_cents - row.refunded_cents;
}
