/**
 * Receivables: what each account receives from a paid sale, per installment,
 * and when. Lines are computed by the pure split core when a transaction
 * becomes PAID (inside that same database transaction), so a PAID
 * transaction always has its lines and a PENDING one never does. A worker
 * marks lines PAID once their expected date has come (São Paulo calendar).
 */
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database, TransactionRow } from '../../db/types.js';
import type { Outcome } from '../../lib/domain-error.js';
import { DEFAULT_PAGE_SIZE, toPage } from '../../lib/paging.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { saoPauloDate } from '../../lib/sao-paulo-date.js';
import type { CreateIntentInput } from '../payment-intents/index.js';
import { approvedDocuments, sellerProfile } from '../companies/index.js';
import { addToDays, paidDeltas, reversalDeltas, settledDeltas } from '../daily-totals/index.js';
import { distinctRecipientDocuments, splitError, unapprovedRecipientProblems, validateSplitRules, type SplitRuleInput } from '../split/index.js';
import type { ReceivableReversal, ReceivablesPort, ReceivableView } from '../transactions/index.js';
import * as repo from './repo.js';
import { receivableRows } from './rules.js';
import { reversalRows } from './reversal.js';
import { listedReceivableView, receivableView } from './view.js';

export interface ReceivableListQuery {
  limit?: number;
  startingAfter?: string;
  status?: string;
  recipientDocument?: string;
  expectedOnFrom?: string;
  expectedOnTo?: string;
  order?: 'newest' | 'expected';
}

export class ReceivableService implements ReceivablesPort {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly newId: IdGenerator,
  ) {}

  /**
   * Validates `splitRules` of a new intent: shape and sums (400 / 422
   * SPLIT_INVALID, from the pure core), then that every recipient is an
   * approved account (422 SPLIT_RECIPIENT_NOT_FOUND).
   */
  readonly checkSplitRules = async (companyId: string, input: Pick<CreateIntentInput, 'amountCents' | 'splitRules'>): Promise<Outcome<void>> => {
    const rules = input.splitRules as SplitRuleInput[] | undefined;
    if (!rules || rules.length === 0) return;
    const seller = await sellerProfile(this.db, companyId);
    const result = validateSplitRules(rules, input.amountCents, seller.document);
    if (!result.ok) return splitError(result.kind, result.problems);
    const approved = await approvedDocuments(this.db, distinctRecipientDocuments(rules));
    const missing = unapprovedRecipientProblems(rules, (doc) => approved.has(doc));
    if (missing.length > 0) return splitError('SPLIT_RECIPIENT_NOT_FOUND', missing);
  };

  /** The lines of a sale just paid, and the daily totals they and the sale change (the home page's, same transaction). */
  async onPaid(trx: Transaction<Database>, row: TransactionRow, at: Date): Promise<void> {
    const seller = await sellerProfile(trx, row.company_id);
    const lines = receivableRows(row, seller.document, at, () => this.newId('rcv'));
    await repo.insertReceivables(trx, lines);
    await addToDays(trx, paidDeltas(row, at, lines));
  }

  /**
   * Takes a reversal (refund, chargeback) out of a PAID transaction's lines,
   * in the caller's database transaction, which holds the transaction's row
   * lock: PENDING lines go down, and what they cannot cover becomes a
   * negative adjustment line per account (reversal.ts, split/refund.ts).
   */
  async reverse(trx: Transaction<Database>, row: TransactionRow, reversal: ReceivableReversal, at: Date): Promise<void> {
    // Locked: the settlement worker does not pay a line out from under the reversal (it waits, then pays what is left).
    const lines = await repo.receivablesOf(trx, [row.id], true);
    const { changes, adjustments } = reversalRows(row, lines, reversal, at, () => this.newId('rcv'));
    await repo.reduceLines(trx, changes);
    await repo.insertReceivables(trx, adjustments);
    // Last: the daily totals' rows are locked after the lines, as the settlement locks them (no crosswise wait).
    const byId = new Map(lines.map((l) => [l.id, l]));
    await addToDays(
      trx,
      reversalDeltas(
        row,
        { kind: reversal.adjustment, amountCents: reversal.feeCents + reversal.amountCents, feeReturnedCents: reversal.feeCents },
        changes.map((c) => ({ line: byId.get(c.id)!, amountCents: c.amountCents })),
        adjustments,
      ),
    );
  }

  async listByTransaction(ex: Db, transactionIds: string[]): Promise<Map<string, ReceivableView[]>> {
    const byTransaction = new Map<string, ReceivableView[]>();
    for (const row of await repo.receivablesOf(ex, transactionIds)) {
      const lines = byTransaction.get(row.transaction_id) ?? [];
      lines.push(receivableView(row));
      byTransaction.set(row.transaction_id, lines);
    }
    return byTransaction;
  }

  async listForCompany(companyId: string, q: ReceivableListQuery) {
    const limit = q.limit ?? DEFAULT_PAGE_SIZE;
    const page = toPage(await repo.listReceivables(this.db, companyId, { ...q, limit }), limit);
    return { data: page.data.map(listedReceivableView), hasMore: page.hasMore };
  }

  /** What the lines a filter selects add up to: in all, and by status. */
  async totalsForCompany(companyId: string, q: Omit<ReceivableListQuery, 'limit' | 'startingAfter'>): Promise<{ amount: number; byStatus: Record<'PENDING' | 'PAID', number> }> {
    const byStatus = { PENDING: 0, PAID: 0 };
    for (const { status, amount } of await repo.receivableTotals(this.db, companyId, q)) byStatus[status as 'PENDING' | 'PAID'] = amount;
    return { amount: byStatus.PENDING + byStatus.PAID, byStatus };
  }

  /** Every line a filter selects, newest first, in keyset batches of `batch` (the CSV export: memory bounded by one batch). */
  async *exportLines(companyId: string, q: Omit<ReceivableListQuery, 'limit' | 'startingAfter'>, batch = 1_000): AsyncGenerator<ReturnType<typeof listedReceivableView>[]> {
    let startingAfter: string | undefined;
    for (;;) {
      const page = toPage(await repo.listReceivables(this.db, companyId, { ...q, limit: batch, startingAfter }), batch);
      if (page.data.length > 0) yield page.data.map(listedReceivableView);
      if (!page.hasMore) return;
      startingAfter = page.data[page.data.length - 1]!.id;
    }
  }

  /** Worker: pays every receivable whose expected date has come (São Paulo calendar), and moves them to received in the daily totals. */
  async settleDue(): Promise<number> {
    const now = this.clock.now();
    return this.db.transaction().execute((trx) => this.settle(trx, now, { dueOnOrBefore: saoPauloDate(now) }));
  }

  /** Sandbox: pays all of one transaction's receivables at once (inside the caller's transaction). */
  async settleTransaction(trx: Transaction<Database>, transactionId: string, at: Date): Promise<number> {
    return this.settle(trx, at, { transactionId });
  }

  private async settle(trx: Transaction<Database>, at: Date, scope: Parameters<typeof repo.settleReceivables>[2]): Promise<number> {
    const groups = await repo.settleReceivables(trx, at, scope);
    await addToDays(trx, settledDeltas(groups, saoPauloDate(at)));
    return groups.reduce((n, g) => n + g.lines, 0);
  }
}
