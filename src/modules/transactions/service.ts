/**
 * Transactions: reads, listing, the moves out of PENDING, and the reversals
 * (refunds, chargebacks) of a PAID one, which the refunds module drives.
 *
 * Invariants: a transaction changes state only while its row is locked
 * (SELECT … FOR UPDATE), and the event of each change is written in the same
 * database transaction (outbox), so no change is without its event and no
 * event without its change (a reversal's caller writes its own event in the
 * same commit). Which moves are allowed, what each emits and the amounts
 * after a reversal are decided by rules.ts; this file loads, locks, applies
 * and persists.
 */
import type { InsertFragment } from '../../db/one-statement.js';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.js';
import { transact } from '../../db/transact.js';
import type { Database, TransactionRow } from '../../db/types.js';
import { notFound, type Outcome } from '../../lib/domain-error.js';
import type { Clock } from '../../lib/clock.js';
import { DEFAULT_PAGE_SIZE, toPage } from '../../lib/paging.js';
import type { ResponseRecorder } from '../idempotency/index.js';
import type { IdGenerator } from '../../lib/ids.js';
import { isId } from '../../lib/ids.js';
import { sellerProfile } from '../companies/index.js';
import * as repo from './repo.js';
import { canMove, eventOfMove, notSettleable, reversedAmounts, sandboxDecision, type TransactionMove, type TransactionReversal } from './rules.js';
import type { TransactionEventType } from './schemas.js';
import { exportBatches, searchFilter, type SearchQuery } from './selection.js';
import { transactionView, type ReceivableView, type TransactionView } from './view.js';

/** A reversal as the receivables take it: the fee it returns, the net it takes back, and what it is. */
export interface ReceivableReversal {
  feeCents: number;
  amountCents: number;
  adjustment: 'REFUND' | 'CHARGEBACK';
  refundId?: string;
}

/** Lets the split module attach receivables without this module knowing how they are computed. */
export interface ReceivablesPort {
  /** Creates the receivables of a transaction that just became PAID. */
  onPaid(trx: Transaction<Database>, row: TransactionRow, at: Date): Promise<void>;
  /** The receivables of some transactions, by transaction id (one query for a whole page). */
  listByTransaction(ex: Db, transactionIds: string[]): Promise<Map<string, ReceivableView[]>>;
  /** Takes a refund or chargeback out of a PAID transaction's receivables (fee returned, net taken back). */
  reverse(trx: Transaction<Database>, row: TransactionRow, reversal: ReceivableReversal, at: Date): Promise<void>;
  /** Pays all of a transaction's receivables now (sandbox). */
  settleTransaction(trx: Transaction<Database>, transactionId: string, at: Date): Promise<number>;
}

/**
 * Writes a transaction's event in the caller's database transaction (the
 * events module's outbox). A port, so that events may depend on this module
 * (the snapshot's schema, the event names) and not the reverse.
 */
interface OutboxPort {
  record(trx: Transaction<Database>, at: Date, type: TransactionEventType, transaction: TransactionView): Promise<unknown>;
  /** `record` as unexecuted INSERTs, for a larger statement (db/one-statement.ts). */
  recordQueries(at: Date, type: TransactionEventType, transaction: TransactionView): InsertFragment[];
}

/** What a provider's payment did to its transaction (payFromProvider). */
export interface ProviderPaymentOutcome {
  outcome: 'applied' | 'amount_mismatch' | 'already_paid' | 'not_pending' | 'no_transaction';
  transactionId?: string;
}

export interface TransactionDeps {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  receivables: ReceivablesPort;
  outbox: OutboxPort;
}

export interface ListQuery {
  limit?: number;
  startingAfter?: string;
  status?: string;
  paymentMethod?: string;
  referenceId?: string;
  paymentLinkId?: string;
  createdFrom?: string;
  createdTo?: string;
}

export class TransactionService {
  constructor(private readonly deps: TransactionDeps) {}

  /** The API view of a row, with the seller's name and receivables, read through `ex`. */
  async view(ex: Db, row: TransactionRow): Promise<TransactionView> {
    return (await this.views(ex, row.company_id, [row]))[0]!;
  }

  /** Views of one company's rows: one query for the seller's name and one for all their receivables. */
  private async views(ex: Db, companyId: string, rows: TransactionRow[]): Promise<TransactionView[]> {
    const [name, receivables] = await Promise.all([
      sellerProfile(ex, companyId).then((seller) => seller.name),
      this.deps.receivables.listByTransaction(ex, rows.map((r) => r.id)),
    ]);
    return rows.map((row) => transactionView(row, name, receivables.get(row.id) ?? []));
  }

  /** The view of one transaction read through `ex` (e.g. inside the caller's database transaction), if it exists. */
  async find(ex: Db, companyId: string, id: string): Promise<TransactionView | undefined> {
    const row = await repo.findTransaction(ex, companyId, id);
    return row && this.view(ex, row);
  }

  /** The row alone, without the reads of a view (its seller's name, its receivables). */
  async findRow(ex: Db, companyId: string, id: string): Promise<TransactionRow | undefined> {
    return repo.findTransaction(ex, companyId, id);
  }

  async get(companyId: string, id: string): Promise<Outcome<TransactionView>> {
    const row = isId('trx', id) ? await repo.findTransaction(this.deps.db, companyId, id) : undefined;
    if (!row) return notFound('transaction');
    return this.view(this.deps.db, row);
  }

  async list(companyId: string, q: ListQuery): Promise<{ data: TransactionView[]; hasMore: boolean }> {
    const limit = q.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await repo.listTransactions(this.deps.db, companyId, {
      limit,
      startingAfter: q.startingAfter,
      status: q.status,
      paymentMethod: q.paymentMethod,
      referenceId: q.referenceId,
      paymentLinkId: q.paymentLinkId,
      createdFrom: q.createdFrom ? new Date(q.createdFrom) : undefined,
      createdTo: q.createdTo ? new Date(q.createdTo) : undefined,
    });
    const page = toPage(rows, limit);
    return { data: await this.views(this.deps.db, companyId, page.data), hasMore: page.hasMore };
  }

  /** The dashboard's list: filters and search (search.ts), newest first, keyset-paged. */
  async search(companyId: string, q: SearchQuery): Promise<{ data: TransactionView[]; hasMore: boolean }> {
    const limit = q.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await repo.searchRows(this.deps.db, companyId, searchFilter(q, limit));
    const page = toPage(rows, limit);
    return { data: await this.views(this.deps.db, companyId, page.data), hasMore: page.hasMore };
  }

  /** Every transaction a search selects, for the CSV export: batches read by keyset as the consumer asks for them (selection.ts). */
  exportRows(companyId: string, q: Omit<SearchQuery, 'limit' | 'startingAfter'>): AsyncGenerator<repo.ExportedTransaction[]> {
    return exportBatches(this.deps.db, companyId, q);
  }

  /**
   * Moves a locked PENDING row to PAID, CANCELED or FAILED (a refused card) and
   * writes the move's event (rules.ts); returns the new view. Callers lock the
   * row and check the move is allowed: a refused move here is a programming error.
   */
  async transition(trx: Transaction<Database>, row: TransactionRow, to: TransactionMove, at: Date): Promise<TransactionView> {
    if (!canMove(row.status)) throw new Error(`transaction ${row.id} is ${row.status}, not PENDING`);
    const updated = await repo.updateTransactionStatus(trx, row.id, to, at);
    if (to === 'PAID') await this.deps.receivables.onPaid(trx, updated, at);
    const view = await this.view(trx, updated);
    await this.deps.outbox.record(trx, at, eventOfMove(to), view);
    return view;
  }

  /**
   * Locks one of the company's transactions (refunds and chargebacks of it
   * serialize on this lock), in the caller's database transaction.
   */
  async lock(trx: Transaction<Database>, companyId: string, id: string): Promise<TransactionRow | undefined> {
    return isId('trx', id) ? repo.findTransaction(trx, companyId, id, true) : undefined;
  }

  /**
   * Applies a SUCCEEDED refund or a chargeback to a locked PAID row: the
   * amounts (rules.ts reversedAmounts), the receivables, and CANCELED when
   * all of the sale went back. Writes no event: the caller writes its own
   * (refund.succeeded) first and then `transaction.canceled` when `canceled`.
   */
  async applyReversal(
    trx: Transaction<Database>,
    row: TransactionRow,
    reversal: TransactionReversal & { refundId?: string },
    at: Date,
  ): Promise<{ view: TransactionView; canceled: boolean }> {
    if (row.status !== 'PAID') throw new Error(`transaction ${row.id} is ${row.status}, not PAID`);
    const { amounts, feeReturnedCents } = reversedAmounts(row, reversal, at);
    await this.deps.receivables.reverse(
      trx,
      row,
      { feeCents: feeReturnedCents, amountCents: reversal.amountCents - feeReturnedCents, adjustment: reversal.kind, ...(reversal.refundId ? { refundId: reversal.refundId } : {}) },
      at,
    );
    const updated = await repo.updateReversedAmounts(trx, row.id, amounts, at);
    return { view: await this.view(trx, updated), canceled: updated.status === 'CANCELED' };
  }

  /** Writes `transaction.canceled` for a transaction a reversal canceled, after the caller's own event. */
  async recordCanceled(trx: Transaction<Database>, view: TransactionView, at: Date): Promise<void> {
    await this.deps.outbox.record(trx, at, 'transaction.canceled', view);
  }

  /** `transaction.created` of a transaction just inserted, as unexecuted INSERTs (the event, its deliveries) for the sale's statement (db/one-statement.ts). */
  createdQueries(view: TransactionView, at: Date): InsertFragment[] {
    return this.deps.outbox.recordQueries(at, 'transaction.created', view);
  }

  /**
   * Sandbox pay (to PAID) and fail (to CANCELED). Paying a PAID transaction
   * again answers it unchanged with no second event; anything else that is
   * not PENDING is 409 TRANSACTION_NOT_PENDING. A PENDING row whose payment
   * window has closed is canceled first (as the expiry worker would).
   */
  async settleInSandbox(companyId: string, id: string, to: 'PAID' | 'CANCELED', recorder?: ResponseRecorder): Promise<Outcome<TransactionView>> {
    if (!isId('trx', id)) return notFound('transaction');
    const now = this.deps.clock.now();
    return transact(this.deps.db, async (trx) => {
      const row = await repo.findTransaction(trx, companyId, id, true);
      if (!row) return notFound('transaction');
      const decision = sandboxDecision(row, to, now);
      if (decision.kind === 'expire') {
        // The cancellation commits (as the expiry worker would have done); the caller is told why nothing else happened.
        await this.transition(trx, row, 'CANCELED', now);
        return decision.error;
      }
      if (decision.kind === 'refuse') return decision.error;
      const result = decision.kind === 'move' ? await this.transition(trx, row, to, now) : await this.view(trx, row);
      await recorder?.save(trx, result);
      return result;
    });
  }

  /** Sandbox settle: every receivable of a PAID transaction becomes PAID at once. */
  async settleReceivablesInSandbox(companyId: string, id: string, recorder?: ResponseRecorder): Promise<Outcome<TransactionView>> {
    if (!isId('trx', id)) return notFound('transaction');
    const now = this.deps.clock.now();
    return transact(this.deps.db, async (trx) => {
      const row = await repo.findTransaction(trx, companyId, id, true);
      if (!row) return notFound('transaction');
      if (row.status !== 'PAID') return notSettleable(row.status);
      await this.deps.receivables.settleTransaction(trx, row.id, now);
      const view = await this.view(trx, row);
      await recorder?.save(trx, view);
      return view;
    });
  }

  /** The status of the transaction an intent made, if any (reconciliation decides from it what to ask the provider). */
  async statusOfIntent(paymentIntentId: string): Promise<TransactionRow['status'] | undefined> {
    return (await repo.findTransactionOfIntent(this.deps.db, paymentIntentId))?.status;
  }

  /**
   * A payment the provider confirmed (a Pix received, a boleto paid), in the
   * caller's database transaction: a PENDING transaction of exactly that
   * amount becomes PAID (receivables, transaction.paid). Anything else
   * changes nothing and says why: a different amount, or a transaction no
   * longer PENDING (paid after it was canceled: money to give back).
   */
  async payFromProvider(trx: Transaction<Database>, paymentIntentId: string, amountCents: number, at: Date): Promise<ProviderPaymentOutcome> {
    const row = await repo.findTransactionOfIntent(trx, paymentIntentId, true);
    if (!row) return { outcome: 'no_transaction' };
    if (row.amount_cents !== amountCents) return { outcome: 'amount_mismatch', transactionId: row.id };
    if (!canMove(row.status)) return { outcome: row.status === 'PAID' ? 'already_paid' : 'not_pending', transactionId: row.id };
    await this.transition(trx, row, 'PAID', at);
    return { outcome: 'applied', transactionId: row.id };
  }

  /** Cancels up to `limit` unpaid transactions whose payment window closed; returns how many. */
  async cancelOverdue(limit = 100): Promise<number> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const rows = await repo.claimOverdue(trx, now, limit);
      for (const row of rows) await this.transition(trx, row, 'CANCELED', now);
      return rows.length;
    });
  }
}
