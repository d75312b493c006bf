/**
 * Receivables: what each account receives from a paid sale, per installment,
 * and when. Lines are computed by the pure split core when a transaction
 * becomes PAID (inside that same database transaction), so a PAID
 * transaction always has its lines and a PENDING one never does. A worker
 * marks lines PAID once their expected date has come (São Paulo calendar).
 */
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database, ReceivableRow, TransactionRow } from '../../db/types.js';
import type { Outcome } from '../../lib/domain-error.js';
import { DEFAULT_PAGE_SIZE, toPage } from '../../lib/paging.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { saoPauloDate } from '../../lib/sao-paulo-date.js';
import type { CreateIntentInput } from '../payment-intents/index.js';
import { approvedDocuments, sellerProfile } from '../companies/index.js';
import { computeReceivables, distinctRecipientDocuments, splitError, unapprovedRecipientProblems, validateSplitRules, type SplitRuleInput } from '../split/index.js';
import type { ReceivablesPort, ReceivableView } from '../transactions/index.js';
import * as repo from './repo.js';

export interface ReceivableListQuery {
  limit?: number;
  startingAfter?: string;
  status?: string;
  recipientDocument?: string;
  expectedOnFrom?: string;
  expectedOnTo?: string;
}

function receivableView(row: ReceivableRow): ReceivableView {
  return {
    recipientDocument: row.recipient_document,
    role: row.role,
    installment: row.installment,
    grossAmountCents: row.gross_amount_cents,
    feeCents: row.fee_cents,
    amountCents: row.amount_cents,
    expectedOn: row.expected_on,
    status: row.status,
    ...(row.paid_at ? { paidAt: row.paid_at.toISOString() } : {}),
  };
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
  readonly checkSplitRules = async (companyId: string, input: CreateIntentInput): Promise<Outcome<void>> => {
    const rules = input.splitRules as SplitRuleInput[] | undefined;
    if (!rules || rules.length === 0) return;
    const seller = await sellerProfile(this.db, companyId);
    const result = validateSplitRules(rules, input.amountCents, seller.document);
    if (!result.ok) return splitError(result.kind, result.problems);
    const approved = await approvedDocuments(this.db, distinctRecipientDocuments(rules));
    const missing = unapprovedRecipientProblems(rules, (doc) => approved.has(doc));
    if (missing.length > 0) return splitError('SPLIT_RECIPIENT_NOT_FOUND', missing);
  };

  async onPaid(trx: Transaction<Database>, row: TransactionRow, at: Date): Promise<void> {
    const lines = computeReceivables({
      amountCents: row.amount_cents,
      feeCents: row.fee_cents,
      installments: row.installments,
      paymentMethod: row.payment_method as 'PIX' | 'BOLETO' | 'CREDIT_CARD',
      sellerDocument: (await sellerProfile(trx, row.company_id)).document,
      rules: (row.split_rules ?? []) as SplitRuleInput[],
      paidOn: saoPauloDate(at),
    });
    await repo.insertReceivables(
      trx,
      lines.map((line, position) => ({
        id: this.newId('rcv'),
        company_id: row.company_id,
        transaction_id: row.id,
        recipient_document: line.recipientDocument,
        role: line.role,
        installment: line.installment,
        position,
        gross_amount_cents: line.grossAmountCents,
        fee_cents: line.feeCents,
        amount_cents: line.amountCents,
        expected_on: line.expectedOn,
        status: 'PENDING' as const,
        paid_at: null,
        created_at: at,
      })),
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
    return { data: page.data.map((row) => ({ id: row.id, transactionId: row.transaction_id, ...receivableView(row) })), hasMore: page.hasMore };
  }

  /** Worker: pays every receivable whose expected date has come (São Paulo calendar). */
  async settleDue(): Promise<number> {
    const now = this.clock.now();
    return repo.settleReceivables(this.db, now, { dueOnOrBefore: saoPauloDate(now) });
  }

  /** Sandbox: pays all of one transaction's receivables at once (inside the caller's transaction). */
  async settleTransaction(trx: Transaction<Database>, transactionId: string, at: Date): Promise<number> {
    return repo.settleReceivables(trx, at, { transactionId });
  }
}
