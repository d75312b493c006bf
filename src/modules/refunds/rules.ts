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
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import type { Text } from '../../lib/i18n/text.js';
import type { RefundTotals } from './repo.js';

/**
 * How long after asking the provider a PENDING refund whose answer never came
 * is resolved by the worker: longer than any provider call may last, so no
 * call is still in flight when the worker reads the provider's record.
 */
export const ASK_WINDOW_MS = 120_000;
/** How often a refund the provider is still processing (a Pix devolução EM_PROCESSAMENTO) is asked about. */
export const FOLLOW_INTERVAL_MS = 15_000;

const notRefundable = (message: Text) => new DomainError('TRANSACTION_NOT_REFUNDABLE', message);

/** Why this transaction cannot be refunded or charged back at all (boleto, not PAID); undefined when it can. */
function refusal(row: Pick<TransactionRow, 'status' | 'payment_method'>): DomainError | undefined {
  if (row.payment_method === 'BOLETO') {
    return notRefundable(ERRORS.TRANSACTION_NOT_REFUNDABLE.boleto);
  }
  if (row.status !== 'PAID') return notRefundable(ERRORS.TRANSACTION_NOT_REFUNDABLE.notPaid({ status: row.status }));
  return undefined;
}

/** A card refund is one void at a time: the acquirer keeps only a total voided per sale, by which a lost answer is resolved. */
function cardRefundRunning(row: Pick<TransactionRow, 'payment_method'>, totals: RefundTotals): DomainError | undefined {
  if (row.payment_method !== 'CREDIT_CARD' || totals.pending === 0) return undefined;
  return new DomainError('REFUND_IN_PROGRESS', ERRORS.REFUND_IN_PROGRESS.card);
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
  if (left <= 0) return new DomainError('REFUND_EXCEEDS_AVAILABLE', ERRORS.REFUND_EXCEEDS_AVAILABLE.nothingLeft);
  const amount = requested ?? left;
  if (amount > left) {
    return new DomainError('REFUND_EXCEEDS_AVAILABLE', ERRORS.REFUND_EXCEEDS_AVAILABLE.exceeds({ leftCents: left }), [
      { field: 'amountCents', message: PROBLEMS.refundLeft({ limit: left }) },
    ]);
  }
  return amount;
}

/** What a sandbox chargeback takes back: all that is left of a PAID card sale. */
export function chargebackAmount(row: Pick<TransactionRow, 'status' | 'payment_method' | 'amount_cents' | 'refunded_cents'>, totals: RefundTotals): Outcome<number> {
  if (row.payment_method !== 'CREDIT_CARD') return notRefundable(ERRORS.TRANSACTION_NOT_REFUNDABLE.notCard);
  return refusal(row) ?? cardRefundRunning(row, totals) ?? row.amount_cents - row.refunded_cents;
}
