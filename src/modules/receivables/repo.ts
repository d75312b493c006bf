/** Receivable queries. The executor (pool or open transaction) is always the first parameter. */
import { sql, type Kysely } from 'kysely';
import type { Database, NewReceivable, ReceivableRow } from '../../db/types.js';
import { rowsToRead } from '../../lib/paging.js';

type Ex = Kysely<Database>;

export async function insertReceivables(ex: Ex, rows: NewReceivable[]): Promise<void> {
  if (rows.length > 0) await ex.insertInto('receivables').values(rows).execute();
}

/** The lines of some transactions in the order they were computed: by installment, seller first, then rule order. */
export async function receivablesOf(ex: Ex, transactionIds: string[], forUpdate = false): Promise<ReceivableRow[]> {
  if (transactionIds.length === 0) return [];
  let query = ex.selectFrom('receivables').selectAll().where('transaction_id', 'in', transactionIds).orderBy('transaction_id').orderBy('position');
  if (forUpdate) query = query.forUpdate();
  return query.execute();
}

/** Sets new fee and amount (gross follows) on PENDING lines a reversal takes from, read locked (receivablesOf forUpdate). */
export async function reduceLines(ex: Ex, changes: { id: string; feeCents: number; amountCents: number }[]): Promise<void> {
  for (const c of changes) {
    const result = await ex
      .updateTable('receivables')
      .set({ fee_cents: c.feeCents, amount_cents: c.amountCents, gross_amount_cents: c.feeCents + c.amountCents })
      .where('id', '=', c.id)
      .where('status', '=', 'PENDING')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new Error(`receivable ${c.id} is no longer PENDING: its lines were not read locked`);
  }
}

export interface ReceivableFilter {
  limit: number;
  startingAfter?: string | undefined;
  status?: string | undefined;
  recipientDocument?: string | undefined;
  expectedOnFrom?: string | undefined;
  expectedOnTo?: string | undefined;
  /** newest (the default): by id, newest first; expected: by expected date, then id, earliest first (the dashboard's Recebíveis). */
  order?: 'newest' | 'expected' | undefined;
}

/** The company's receivables a filter selects, without its page: the list's conditions, once. */
function receivablesWhere(ex: Ex, companyId: string, f: Omit<ReceivableFilter, 'limit' | 'startingAfter' | 'order'>) {
  let query = ex.selectFrom('receivables').where('company_id', '=', companyId);
  if (f.status) query = query.where('status', '=', f.status as 'PENDING' | 'PAID');
  if (f.recipientDocument) query = query.where('recipient_document', '=', f.recipientDocument);
  if (f.expectedOnFrom) query = query.where('expected_on', '>=', f.expectedOnFrom);
  if (f.expectedOnTo) query = query.where('expected_on', '<=', f.expectedOnTo);
  return query;
}

/** The sum of the lines a filter selects, by status (adjustment lines count, negative). */
export async function receivableTotals(ex: Ex, companyId: string, f: Omit<ReceivableFilter, 'limit' | 'startingAfter'>): Promise<{ status: string; amount: number }[]> {
  const rows = await receivablesWhere(ex, companyId, f)
    .select(['status', (eb) => eb.fn.sum<number>('amount_cents').as('amount')])
    .groupBy('status')
    .execute();
  return rows.map((r) => ({ status: r.status, amount: Number(r.amount) }));
}

/**
 * Newest first, keyset paging on the time-ordered id (lib/paging.ts); or by
 * expected date, keyset on (expected date, id), the cursor's date read from
 * its row (an index of (company_id, expected_on, id), PENDING ones apart).
 */
export async function listReceivables(ex: Ex, companyId: string, f: ReceivableFilter): Promise<ReceivableRow[]> {
  let query = receivablesWhere(ex, companyId, f).selectAll();
  if (f.order === 'expected') {
    if (f.startingAfter) {
      const cursor = sql<boolean>`(expected_on, id) > (SELECT c.expected_on, c.id FROM receivables c WHERE c.company_id = ${companyId} AND c.id = ${f.startingAfter})`;
      query = query.where(cursor);
    }
    return query.orderBy('expected_on').orderBy('id').limit(rowsToRead(f.limit)).execute();
  }
  if (f.startingAfter) query = query.where('id', '<', f.startingAfter);
  return query.orderBy('id', 'desc').limit(rowsToRead(f.limit)).execute();
}

/**
 * Marks PENDING receivables PAID: those due on or before `today`, or those of one transaction.
 * One UPDATE … WHERE status = 'PENDING': a row is paid exactly once however many workers run it.
 * Answers what it paid by company and expected date (the daily totals' change), not row by row.
 */
export async function settleReceivables(
  ex: Ex,
  at: Date,
  scope: { dueOnOrBefore: string } | { transactionId: string },
): Promise<{ companyId: string; expectedOn: string; amount: number; lines: number }[]> {
  const rows = await ex
    .with('settled', (db) => {
      const query = db.updateTable('receivables').set({ status: 'PAID', paid_at: at }).where('status', '=', 'PENDING');
      return ('transactionId' in scope ? query.where('transaction_id', '=', scope.transactionId) : query.where('expected_on', '<=', scope.dueOnOrBefore)).returning([
        'company_id',
        'expected_on',
        'amount_cents',
      ]);
    })
    .selectFrom('settled')
    .select(['company_id', sql<string>`to_char(expected_on, 'YYYY-MM-DD')`.as('expectedOn'), sql<number>`sum(amount_cents)`.as('amount'), sql<number>`count(*)`.as('lines')])
    .groupBy(['company_id', 'expected_on'])
    .execute();
  return rows.map((r) => ({ companyId: r.company_id, expectedOn: r.expectedOn, amount: Number(r.amount), lines: Number(r.lines) }));
}
