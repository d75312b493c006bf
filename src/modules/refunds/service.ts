/**
 * Refunds of paid transactions, and the sandbox chargeback.
 *
 * Invariants: a refund is written PENDING and committed before its provider
 * is called, and its outcome is recorded after (persist, call, persist): no
 * network call inside a database transaction, and a process dying between
 * the call and the record leaves the refund id the provider knows. Every
 * change of a transaction's refunds happens under that transaction's row lock
 * (taken first, then the refund's), so concurrent refunds of one sale
 * serialize and never promise more than its amount. A PENDING refund whose
 * answer never came is resolved by the worker from the provider's record
 * (findRefund), asked again only when the provider has none, never guessed;
 * Cielo's voids carry no refund id, so a card has one refund PENDING at a
 * time and its record is told apart by the total voided (RefundRequest).
 * A SUCCEEDED refund reverses the receivables and writes refund.succeeded
 * (then transaction.canceled when all of the sale went back) in one commit.
 */
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.js';
import { transact } from '../../db/transact.js';
import type { Database, RefundRow, TransactionRow } from '../../db/types.js';
import type { Clock } from '../../lib/clock.js';
import { isDomainError, notFound, type Outcome } from '../../lib/domain-error.js';
import { isId, type IdGenerator } from '../../lib/ids.js';
import { DEFAULT_PAGE_SIZE, toPage } from '../../lib/paging.js';
import type { ResponseRecorder } from '../idempotency/index.js';
import { appliedPaymentOf } from '../incoming-payments/index.js';
import { methodUnavailable, ProviderUnavailable, type ChargeMethod, type Providers, type RefundRecord, type RefundRequest } from '../providers/index.js';
import type { TransactionService, TransactionView } from '../transactions/index.js';
import * as repo from './repo.js';
import { ASK_WINDOW_MS, chargebackAmount, FOLLOW_INTERVAL_MS, refundAmount } from './rules.js';
import type { RefundEventType } from './schemas.js';
import { refundView, type RefundView } from './view.js';

/** Writes a refund event in the caller's database transaction (the events module's outbox). */
interface RefundOutboxPort {
  record(trx: Transaction<Database>, at: Date, type: RefundEventType, transaction: TransactionView, refund: RefundView): Promise<string>;
}

export interface RefundDeps {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  providers: Providers;
  transactions: TransactionService;
  outbox: RefundOutboxPort;
}

/** What asking the provider told: its record, or nothing known (it did not answer). */
type Answer = Pick<RefundRecord, 'status' | 'providerId' | 'failureReason'> | 'unknown';

const MAX_REASON = 255;

export class RefundService {
  constructor(private readonly deps: RefundDeps) {}

  /**
   * POST /v2/transactions/{id}/refunds. Phase 1 (under the transaction's
   * lock): the amount is checked against what is left and the refund written
   * PENDING, or, for a retry of a request that died, the refund it asked is
   * found by its Idempotency-Key. Phase 2: the provider is asked. Phase 3:
   * the outcome and the response are recorded together.
   */
  async create(companyId: string, transactionId: string, body: { amountCents?: number; reason?: string } | null | undefined, recorder: ResponseRecorder): Promise<Outcome<RefundView>> {
    if (!isId('trx', transactionId)) return notFound('transaction');
    const now = this.deps.clock.now();
    const claimed = await transact(this.deps.db, async (trx) => {
      const row = await this.deps.transactions.lock(trx, companyId, transactionId);
      if (!row) return notFound('transaction');
      const earlier = await repo.findByRequestKey(trx, companyId, recorder.key);
      if (earlier) return { refund: earlier, resumed: true };
      const amount = refundAmount(row, await repo.totalsOf(trx, row.id), body?.amountCents);
      if (isDomainError(amount)) return amount;
      const method = row.payment_method as ChargeMethod;
      const provider = this.deps.providers[method];
      if (!provider) return methodUnavailable(method);
      const refund = await repo.insertRefund(trx, {
        id: this.deps.newId('rf'),
        company_id: companyId,
        transaction_id: row.id,
        amount_cents: amount,
        reason: body?.reason ?? null,
        status: 'PENDING',
        provider: provider.name,
        provider_id: null,
        failure_reason: null,
        request_key: recorder.key,
        asked_at: now,
        // Past this, the worker resolves it if this request never records an answer.
        next_check_at: new Date(now.getTime() + ASK_WINDOW_MS),
        created_at: now,
        updated_at: now,
      });
      return { refund, resumed: false };
    });
    if (isDomainError(claimed)) return claimed;
    const answer = claimed.refund.status === 'PENDING' ? await this.ask(claimed.refund, claimed.resumed) : 'unknown';
    return this.record(claimed.refund, answer, recorder);
  }

  async get(companyId: string, id: string): Promise<Outcome<RefundView>> {
    const row = isId('rf', id) ? await repo.findRefund(this.deps.db, companyId, id) : undefined;
    return row ? refundView(row) : notFound('refund');
  }

  async listOfTransaction(companyId: string, transactionId: string, q: { limit?: number; startingAfter?: string }): Promise<Outcome<{ data: RefundView[]; hasMore: boolean }>> {
    const transaction = isId('trx', transactionId) ? await this.deps.transactions.find(this.deps.db, companyId, transactionId) : undefined;
    if (!transaction) return notFound('transaction');
    const limit = q.limit ?? DEFAULT_PAGE_SIZE;
    const page = toPage(await repo.refundsOf(this.deps.db, transaction.id, { limit, startingAfter: q.startingAfter }), limit);
    return { data: page.data.map(refundView), hasMore: page.hasMore };
  }

  /**
   * Worker: PENDING refunds due a look (a devolução in progress, or an answer
   * that never came past ASK_WINDOW_MS), claimed, resolved from the
   * provider's record; returns how many were looked at.
   */
  async followPending(limit = 50): Promise<number> {
    const now = this.deps.clock.now();
    const due = await this.deps.db.transaction().execute((trx) => repo.claimDue(trx, now, new Date(now.getTime() + ASK_WINDOW_MS), limit));
    for (const refund of due) await this.record(refund, await this.ask(refund, true));
    return due.length;
  }

  /**
   * Sandbox: a chargeback of a PAID card transaction. All that is left of the
   * sale goes back as a full refund would (receivables reversed, the fee
   * returned), the transaction becomes CANCELED with `chargedBackAt`, and
   * `transaction.canceled` is written.
   */
  async chargebackInSandbox(companyId: string, id: string, recorder?: ResponseRecorder): Promise<Outcome<TransactionView>> {
    if (!isId('trx', id)) return notFound('transaction');
    const now = this.deps.clock.now();
    return transact(this.deps.db, async (trx) => {
      const row = await this.deps.transactions.lock(trx, companyId, id);
      if (!row) return notFound('transaction');
      const amount = chargebackAmount(row, await repo.totalsOf(trx, row.id));
      if (isDomainError(amount)) return amount;
      const { view } = await this.deps.transactions.applyReversal(trx, row, { kind: 'CHARGEBACK', amountCents: amount }, now);
      await this.deps.transactions.recordCanceled(trx, view, now);
      await recorder?.save(trx, view);
      return view;
    });
  }

  /**
   * Asks the provider about a refund. `lookFirst`: it may have been asked
   * before (a retry, the worker), so its record is read first and the
   * refund asked again only when the provider has none. No answer is
   * 'unknown' (the worker comes back); a refusal of the request is FAILED.
   */
  private async ask(refund: RefundRow, lookFirst: boolean): Promise<Answer> {
    const transaction = await this.deps.transactions.findRow(this.deps.db, refund.company_id, refund.transaction_id);
    const provider = transaction && this.deps.providers[transaction.payment_method as ChargeMethod];
    if (!transaction || !provider) return 'unknown';
    const request = await this.requestOf(refund, transaction);
    try {
      if (lookFirst) {
        const found = await provider.findRefund(request);
        if (found) return found;
      }
    } catch {
      return 'unknown';
    }
    try {
      return await provider.refund(request);
    } catch (err) {
      if (err instanceof ProviderUnavailable) return 'unknown';
      const message = err instanceof Error ? err.message : String(err);
      return { status: 'FAILED', failureReason: Array.from(`The provider refused the refund: ${message}`).slice(0, MAX_REASON).join('') };
    }
  }

  private async requestOf(refund: RefundRow, transaction: TransactionRow): Promise<RefundRequest> {
    const totals = await repo.totalsOf(this.deps.db, refund.transaction_id, refund.id);
    const paymentId = transaction.payment_method === 'PIX' ? await appliedPaymentOf(this.deps.db, transaction.id) : undefined;
    return {
      reference: transaction.payment_intent_id,
      refundId: refund.id,
      amountCents: refund.amount_cents,
      refundedBeforeCents: totals.succeededCents,
      ...(paymentId ? { paymentId } : {}),
      ...(refund.reason !== null ? { reason: refund.reason } : {}),
    };
  }

  /**
   * Records what the provider answered, under the transaction's lock and then
   * the refund's; only a refund still PENDING changes, so an answer recorded
   * twice (the request and the worker) applies once. The response is stored
   * in the same commit.
   */
  private async record(refund: RefundRow, answer: Answer, recorder?: ResponseRecorder): Promise<Outcome<RefundView>> {
    const now = this.deps.clock.now();
    return transact(this.deps.db, async (trx) => {
      const row = await this.deps.transactions.lock(trx, refund.company_id, refund.transaction_id);
      let current = await repo.findRefund(trx, refund.company_id, refund.id, true);
      if (!row || !current) throw new Error(`refund ${refund.id} or its transaction vanished`);
      if (current.status === 'PENDING' && answer !== 'unknown') {
        const providerId = answer.providerId ?? current.provider_id;
        if (answer.status === 'PENDING') {
          current = await repo.updateRefund(trx, current.id, { provider_id: providerId, next_check_at: new Date(now.getTime() + FOLLOW_INTERVAL_MS) }, now);
        } else if (answer.status === 'SUCCEEDED') {
          current = await repo.updateRefund(trx, current.id, { status: 'SUCCEEDED', provider_id: providerId, next_check_at: null }, now);
          const { view, canceled } = await this.deps.transactions.applyReversal(trx, row, { kind: 'REFUND', amountCents: current.amount_cents, refundId: current.id }, now);
          await this.deps.outbox.record(trx, now, 'refund.succeeded', view, refundView(current));
          if (canceled) await this.deps.transactions.recordCanceled(trx, view, now);
        } else {
          const failureReason = answer.failureReason ?? 'The provider did not refund';
          current = await repo.updateRefund(trx, current.id, { status: 'FAILED', provider_id: providerId, failure_reason: failureReason, next_check_at: null }, now);
          await this.deps.outbox.record(trx, now, 'refund.failed', await this.deps.transactions.view(trx, row), refundView(current));
        }
      }
      const view = refundView(current);
      await recorder?.save(trx, view);
      return view;
    });
  }
}
