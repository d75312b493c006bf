/**
 * The dashboard's reads that no other module answers: the home page's pending
 * sales, the installments of receivables' sales, and a sale's timeline of events and webhook attempts. Reads only; every
 * change goes through the owning module's service. The executor is always
 * the first parameter.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

export interface CountAndAmount {
  count: number;
  amount: number;
}

/**
 * Sales made since `from` that are still PENDING: by a partial index of the
 * PENDING ones (migration 022), which are only those whose payment window is
 * open (the expiry worker cancels the rest), so it reads few rows.
 */
export async function pendingSince(ex: Db, companyId: string, from: Date): Promise<CountAndAmount> {
  const row = await ex
    .selectFrom('transactions')
    .select([(eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_cents'), sql<number>`0`).as('amount')])
    .where('company_id', '=', companyId)
    .where('status', '=', 'PENDING')
    .where('created_at', '>=', from)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), amount: Number(row.amount) };
}

/** How many installments each of these transactions has (Recebíveis shows a line as "1/3"). */
export async function installmentsOf(ex: Db, companyId: string, transactionIds: string[]): Promise<Map<string, number>> {
  if (transactionIds.length === 0) return new Map();
  const rows = await ex.selectFrom('transactions').select(['id', 'installments']).where('company_id', '=', companyId).where('id', 'in', transactionIds).execute();
  return new Map(rows.map((r) => [r.id, r.installments]));
}

/** A transaction's events, oldest first (at most `limit`). */
export async function eventsOfTransaction(ex: Db, companyId: string, transactionId: string, limit: number) {
  return ex
    .selectFrom('events')
    .select(['id', 'type', 'created_at'])
    .where('company_id', '=', companyId)
    .where('transaction_id', '=', transactionId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Every delivery of these events with its attempts (none yet: one row with null attempt) and its registration's URL. */
export async function deliveriesOfEvents(ex: Db, companyId: string, eventIds: string[]) {
  if (eventIds.length === 0) return [];
  return ex
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .leftJoin('webhook_attempts as a', 'a.delivery_id', 'd.id')
    .select(['d.id as deliveryId', 'd.event_id as eventId', 'd.webhook_id as webhookId', 'w.url', 'd.state', 'd.next_attempt_at as nextAttemptAt', 'a.attempt', 'a.status_code as httpStatus', 'a.succeeded', 'a.attempted_at as attemptedAt'])
    .where('d.company_id', '=', companyId)
    .where('d.event_id', 'in', eventIds)
    .orderBy('d.id')
    .orderBy('a.attempt')
    .execute();
}

/** Names and e-mails of dashboard users by id (who made a key or a webhook). */
export async function people(ex: Db, ids: readonly string[]): Promise<Map<string, { name: string; email: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await ex.selectFrom('users').select(['id', 'name', 'email']).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.id, { name: r.name, email: r.email }]));
}

/** A delivery of the company: its event and registration (a resend sends that event to that registration again). */
export async function findDelivery(ex: Db, companyId: string, id: string): Promise<{ eventId: string; webhookId: string } | undefined> {
  return ex
    .selectFrom('webhook_deliveries')
    .select(['event_id as eventId', 'webhook_id as webhookId'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The company's latest event of one of these types (a webhook's test sends it). */
export async function latestEventOf(ex: Db, companyId: string, types: string[]): Promise<string | undefined> {
  if (types.length === 0) return undefined;
  const row = await ex.selectFrom('events').select('id').where('company_id', '=', companyId).where('type', 'in', types).orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row?.id;
}
