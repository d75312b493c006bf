/**
 * The dashboard's reads that no other module answers: the home page's sums
 * and a sale's timeline of events and webhook attempts. Reads only; every
 * change goes through the owning module's service. The executor is always
 * the first parameter.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

export interface CountAndAmount {
  count: number;
  amount: number;
}

/** Paid sales in [from, to): by the (company_id, paid_at) index. */
export async function paidBetween(ex: Db, companyId: string, from: Date, to: Date): Promise<CountAndAmount> {
  const row = await ex
    .selectFrom('transactions')
    .select([(eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_cents'), sql<number>`0`).as('amount')])
    .where('company_id', '=', companyId)
    .where('paid_at', '>=', from)
    .where('paid_at', '<', to)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), amount: Number(row.amount) };
}

/**
 * The paid amount of each day, `starts` the instants the days begin (one
 * more than the days: the end of the last): width_bucket gives the day of
 * each sale, so the zone's rules stay in the application (lib/sao-paulo-date).
 */
export async function paidByDay(ex: Db, companyId: string, starts: Date[]): Promise<number[]> {
  const rows = await ex
    .selectFrom('transactions')
    .select([sql<number>`width_bucket(paid_at, ${sql.val(starts.map((s) => s.toISOString()))}::timestamptz[])`.as('day'), (eb) => eb.fn.sum<number>('amount_cents').as('amount')])
    .where('company_id', '=', companyId)
    .where('paid_at', '>=', starts[0]!)
    .where('paid_at', '<', starts[starts.length - 1]!)
    .groupBy('day')
    .execute();
  const amounts = new Array<number>(starts.length - 1).fill(0);
  for (const r of rows) amounts[Number(r.day) - 1] = Number(r.amount);
  return amounts;
}

/** Sales made since `from`: those still pending, those with refunds, those charged back (count and amount of each). */
export async function recentOutcomes(ex: Db, companyId: string, from: Date): Promise<{ pending: CountAndAmount; refunded: CountAndAmount; chargedBack: CountAndAmount }> {
  const row = await ex
    .selectFrom('transactions')
    .select([
      sql<number>`count(*) FILTER (WHERE status = 'PENDING')`.as('pendingCount'),
      sql<number>`coalesce(sum(amount_cents) FILTER (WHERE status = 'PENDING'), 0)`.as('pendingAmount'),
      sql<number>`count(*) FILTER (WHERE refunded_cents > 0)`.as('refundedCount'),
      sql<number>`coalesce(sum(refunded_cents), 0)`.as('refundedAmount'),
      sql<number>`count(*) FILTER (WHERE charged_back_at IS NOT NULL)`.as('chargedBackCount'),
      sql<number>`coalesce(sum(charged_back_cents), 0)`.as('chargedBackAmount'),
    ])
    .where('company_id', '=', companyId)
    .where('created_at', '>=', from)
    .executeTakeFirstOrThrow();
  const pair = (count: unknown, amount: unknown) => ({ count: Number(count), amount: Number(amount) });
  return {
    pending: pair(row.pendingCount, row.pendingAmount),
    refunded: pair(row.refundedCount, row.refundedAmount),
    chargedBack: pair(row.chargedBackCount, row.chargedBackAmount),
  };
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
