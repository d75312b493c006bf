/**
 * The transaction state machine, pure: which moves are allowed, the event each
 * move emits, and the error for a refused one. No clock and no I/O: `now` is
 * passed in. The service (service.ts) locks the row and applies the decision.
 *
 *   PENDING ──pay──▶ PAID            (transaction.paid; receivables are created)
 *   PENDING ──cancel/expire──▶ CANCELED (transaction.canceled)
 *   PENDING ──card refused──▶ FAILED    (transaction.canceled)
 *   PAID ──refunds of all of it, or a chargeback──▶ CANCELED (transaction.canceled)
 * CANCELED and FAILED are final; a PAID one only moves by reversals (reversedAmounts).
 * Leaving PENDING for CANCELED or FAILED zeroes the fee and the net: no money moved.
 */
import type { TransactionRow } from '../../db/types.js';
import { DomainError } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import { feeKeptAfter } from '../split/index.js';
import type { ReversedAmounts } from './repo.js';
import type { TransactionEventType } from './schemas.js';

/** Where a transaction can go: only out of PENDING. */
export type TransactionMove = 'PAID' | 'CANCELED' | 'FAILED';

export const canMove = (from: string): boolean => from === 'PENDING';

/** The outbox event a move writes: a refused card (FAILED) is reported as a cancellation, per the contract's event list. */
export const eventOfMove = (to: TransactionMove): TransactionEventType => (to === 'PAID' ? 'transaction.paid' : 'transaction.canceled');

/** The error for a move refused because the transaction is no longer PENDING. */
const notPending = (status: string): DomainError => new DomainError('TRANSACTION_NOT_PENDING', ERRORS.TRANSACTION_NOT_PENDING.notPending({ status }));

/** The error for a sandbox settle of a transaction that has no receivables to pay yet. */
export function notSettleable(status: string): DomainError {
  return new DomainError('TRANSACTION_NOT_PENDING', ERRORS.TRANSACTION_NOT_PENDING.notPaid({ status }));
}

/** A PENDING transaction stops being payable when its payment window closes (Pix expiry, boleto due date + grace). */
function windowClosed(row: Pick<TransactionRow, 'status' | 'cancel_at'>, now: Date): boolean {
  return row.status === 'PENDING' && row.cancel_at !== null && row.cancel_at.getTime() <= now.getTime();
}

/**
 * What a sandbox pay (to PAID) or fail (to CANCELED) does to a row:
 * - `expire`: its window closed; it is canceled (as the expiry worker would) and the caller gets `error`;
 * - `move`: PENDING moves to `to`;
 * - `unchanged`: paying a PAID transaction again answers it as it is, with no second event;
 * - `refuse`: anything else is not PENDING.
 */
export type SandboxDecision =
  | { kind: 'expire'; error: DomainError }
  | { kind: 'move' }
  | { kind: 'unchanged' }
  | { kind: 'refuse'; error: DomainError };

export function sandboxDecision(row: Pick<TransactionRow, 'status' | 'cancel_at'>, to: 'PAID' | 'CANCELED', now: Date): SandboxDecision {
  if (windowClosed(row, now)) return { kind: 'expire', error: new DomainError('TRANSACTION_NOT_PENDING', ERRORS.TRANSACTION_NOT_PENDING.windowClosed({ status: 'CANCELED' })) };
  if (canMove(row.status)) return { kind: 'move' };
  if (row.status === 'PAID' && to === 'PAID') return { kind: 'unchanged' };
  return { kind: 'refuse', error: notPending(row.status) };
}

/** A refund or chargeback of `amountCents` of a PAID transaction. */
export interface TransactionReversal {
  kind: 'REFUND' | 'CHARGEBACK';
  amountCents: number;
}

/**
 * The amounts after a reversal, and the fee it returns: the fee kept is
 * F − floor(F × R / A) on the cumulative R of refunds and chargebacks (fee
 * returned pro rata, all of it once everything went back); net = A − R − fee
 * kept. All of the sale given back makes the transaction CANCELED.
 */
export function reversedAmounts(row: TransactionRow, reversal: TransactionReversal, at: Date): { amounts: ReversedAmounts; feeReturnedCents: number } {
  const saleFee = row.sale_fee_cents ?? row.fee_cents;
  const refunded = row.refunded_cents + (reversal.kind === 'REFUND' ? reversal.amountCents : 0);
  const chargedBack = row.charged_back_cents + (reversal.kind === 'CHARGEBACK' ? reversal.amountCents : 0);
  const reversed = refunded + chargedBack;
  const feeKept = feeKeptAfter(saleFee, row.amount_cents, reversed);
  const whole = reversed === row.amount_cents;
  return {
    feeReturnedCents: row.fee_cents - feeKept,
    amounts: {
      fee_cents: feeKept,
      net_amount_cents: row.amount_cents - reversed - feeKept,
      sale_fee_cents: saleFee,
      refunded_cents: refunded,
      charged_back_cents: chargedBack,
      charged_back_at: reversal.kind === 'CHARGEBACK' ? at : row.charged_back_at,
      status: whole ? 'CANCELED' : 'PAID',
      canceled_at: whole ? at : row.canceled_at,
    },
  };
}
