/** Payment link queries. The executor (pool or open transaction) is always the first parameter. */
import type { Kysely } from 'kysely';
import type { Database, NewPaymentLink, PaymentLinkRow } from '../../db/types.js';
import { rowsToRead } from '../../lib/paging.js';

type Ex = Kysely<Database>;

export async function insertLink(ex: Ex, row: NewPaymentLink): Promise<PaymentLinkRow> {
  return ex.insertInto('payment_links').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findLink(ex: Ex, companyId: string, id: string, forUpdate = false): Promise<PaymentLinkRow | undefined> {
  let query = ex.selectFrom('payment_links').selectAll().where('company_id', '=', companyId).where('id', '=', id);
  if (forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** A link by id alone: the hosted page knows no company. */
export async function findPublicLink(ex: Ex, id: string): Promise<PaymentLinkRow | undefined> {
  return ex.selectFrom('payment_links').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Newest first; keyset paging on the time-ordered id (lib/paging.ts). */
export async function listLinks(ex: Ex, companyId: string, limit: number, startingAfter?: string): Promise<PaymentLinkRow[]> {
  let query = ex.selectFrom('payment_links').selectAll().where('company_id', '=', companyId);
  if (startingAfter) query = query.where('id', '<', startingAfter);
  return query.orderBy('id', 'desc').limit(rowsToRead(limit)).execute();
}

export async function cancelLink(ex: Ex, id: string, at: Date): Promise<PaymentLinkRow> {
  return ex.updateTable('payment_links').set({ canceled_at: at, updated_at: at }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
