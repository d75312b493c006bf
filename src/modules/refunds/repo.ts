/** All SQL on the refunds table. The executor (pool or open transaction) is always the first parameter. */
import type { Kysely, Transaction } from 'kysely';
import type { Database, NewRefund, RefundRow } from '../../db/types.js';
import { rowsToRead } from '../../lib/paging.js';

type Ex = Kysely<Database>;

export async function insertRefund(ex: Ex, row: NewRefund): Promise<RefundRow> {
  return ex.insertInto('refunds').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findRefund(ex: Ex, companyId: string, id: string, forUpdate = false): Promise<RefundRow | undefined> {
  let query = ex.selectFrom('refunds').selectAll().where('company_id', '=', companyId).where('id', '=', id);
  if (forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The refund a request with this Idempotency-Key asked, if any. */
export async function findByRequestKey(ex: Ex, companyId: string, key: string): Promise<RefundRow | undefined> {
  return ex.selectFrom('refunds').selectAll().where('company_id', '=', companyId).where('request_key', '=', key).executeTakeFirst();
}

/** A transaction's refunds, newest first (keyset paging on the id). */
export async function refundsOf(ex: Ex, transactionId: string, page: { limit: number; startingAfter?: string | undefined }): Promise<RefundRow[]> {
  let query = ex.selectFrom('refunds').selectAll().where('transaction_id', '=', transactionId);
  if (page.startingAfter) query = query.where('id', '<', page.startingAfter);
  return query.orderBy('id', 'desc').limit(rowsToRead(page.limit)).execute();
}

export interface RefundTotals {
  /** PENDING and SUCCEEDED: what is spoken for. */
  committedCents: number;
  /** SUCCEEDED only, without `except`. */
  succeededCents: number;
  pending: number;
}

/** The sums of a transaction's refunds (one statement); `except` leaves one refund out of `succeededCents`. */
export async function totalsOf(ex: Ex, transactionId: string, except?: string): Promise<RefundTotals> {
  const rows = await ex
    .selectFrom('refunds')
    .select(['id', 'status', 'amount_cents'])
    .where('transaction_id', '=', transactionId)
    .where('status', 'in', ['PENDING', 'SUCCEEDED'])
    .execute();
  const sum = (keep: (r: (typeof rows)[number]) => boolean) => rows.filter(keep).reduce((s, r) => s + r.amount_cents, 0);
  return {
    committedCents: sum(() => true),
    succeededCents: sum((r) => r.status === 'SUCCEEDED' && r.id !== except),
    pending: rows.filter((r) => r.status === 'PENDING').length,
  };
}

interface RefundUpdate {
  status?: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  provider_id?: string | null;
  failure_reason?: string | null;
  next_check_at?: Date | null;
}

export async function updateRefund(ex: Ex, id: string, set: RefundUpdate, at: Date): Promise<RefundRow> {
  return ex.updateTable('refunds').set({ ...set, updated_at: at }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/**
 * PENDING refunds due a look (a devolução in progress, an answer that never
 * came), claimed: each gets `leaseUntil` as its next look in the same
 * statement's transaction, so several workers never follow the same one.
 */
export async function claimDue(trx: Transaction<Database>, now: Date, leaseUntil: Date, limit: number): Promise<RefundRow[]> {
  const rows = await trx
    .selectFrom('refunds')
    .selectAll()
    .where('status', '=', 'PENDING')
    .where('next_check_at', '<=', now)
    .orderBy('next_check_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  if (rows.length > 0) await trx.updateTable('refunds').set({ next_check_at: leaseUntil }).where('id', 'in', rows.map((r) => r.id)).execute();
  return rows;
}
