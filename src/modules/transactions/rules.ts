/**
 * The transaction state machine, pure: which moves are allowed, the event each
 * move emits, and the error for a refused one. No clock and no I/O: `now` is
 * passed in. The service (service.ts) locks the row and applies the decision.
 *
 *   PENDING ──pay──▶ PAID            (transaction.paid; receivables are created)
 *   PENDING ──cancel/expire──▶ CANCELED (transaction.canceled)
 *   PENDING ──card refused──▶ FAILED    (transaction.canceled)
 * PAID, CANCELED and FAILED are final.
 */
import type { TransactionRow } from '../../db/types.js';
import { DomainError } from '../../lib/domain-error.js';
import type { TransactionEventType } from './schemas.js';

/** Where a transaction can go: only out of PENDING. */
export type TransactionMove = 'PAID' | 'CANCELED' | 'FAILED';

export const canMove = (from: string): boolean => from === 'PENDING';

/** The outbox event a move writes: a refused card (FAILED) is reported as a cancellation, per the contract's event list. */
export const eventOfMove = (to: TransactionMove): TransactionEventType => (to === 'PAID' ? 'transaction.paid' : 'transaction.canceled');

/** The error for a move refused because the transaction is no longer PENDING. */
function notPending(status: string, why?: string): DomainError {
  return new DomainError('TRANSACTION_NOT_PENDING', `The transaction is ${status}${why ? ` (${why})` : ''}; only a PENDING transaction can change`);
}

/** The error for a sandbox settle of a transaction that has no receivables to pay yet. */
export function notSettleable(status: string): DomainError {
  return new DomainError('TRANSACTION_NOT_PENDING', `The transaction is ${status}; only a PAID transaction has receivables to settle`);
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
  if (windowClosed(row, now)) return { kind: 'expire', error: notPending('CANCELED', 'its payment window closed') };
  if (canMove(row.status)) return { kind: 'move' };
  if (row.status === 'PAID' && to === 'PAID') return { kind: 'unchanged' };
  return { kind: 'refuse', error: notPending(row.status) };
}
