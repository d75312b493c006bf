/** The daily totals' writes (an upsert that adds) and the home page's reads. The executor is always the first parameter. */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { AMOUNTS, merge, type DayDelta } from './rules.js';

type Ex = Kysely<Database>;

/** Rows per INSERT: 12 parameters a row, far under the protocol's 65,535. */
const BATCH = 1_000;

/** Adds the deltas to their rows (created at zero when absent), in merge()'s order. Call it inside the write's own transaction. */
export async function addToDays(ex: Ex, deltas: readonly DayDelta[]): Promise<void> {
  const rows = merge(deltas);
  for (let i = 0; i < rows.length; i += BATCH) {
    const values = rows.slice(i, i + BATCH).map((r) => ({
      company_id: r.companyId,
      day: r.day,
      shard: r.shard,
      ...Object.fromEntries(AMOUNTS.map((a) => [a, r[a] ?? 0])),
    }));
    await ex
      .insertInto('daily_totals')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['company_id', 'day', 'shard']).doUpdateSet(Object.fromEntries(AMOUNTS.map((a) => [a, sql`daily_totals.${sql.ref(a)} + excluded.${sql.ref(a)}`]))),
      )
      .execute();
  }
}

export interface DaySums {
  day: string;
  paidCount: number;
  paidCents: number;
  feeCents: number;
  refundedCount: number;
  refundedCents: number;
  chargedBackCount: number;
  chargedBackCents: number;
  receivedCents: number;
}

/** The sums of each day in [from, to] that has any (shards added up). */
export async function daysBetween(ex: Ex, companyId: string, from: string, to: string): Promise<DaySums[]> {
  const rows = await ex
    .selectFrom('daily_totals')
    .select([
      sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'),
      ...(['paid_count', 'paid_cents', 'fee_cents', 'refunded_count', 'refunded_cents', 'charged_back_count', 'charged_back_cents', 'received_cents'] as const).map((a) =>
        sql<number>`sum(${sql.ref(a)})`.as(a),
      ),
    ])
    .where('company_id', '=', companyId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy('day')
    .execute();
  return rows.map((r) => ({
    day: r.day,
    paidCount: Number(r.paid_count),
    paidCents: Number(r.paid_cents),
    feeCents: Number(r.fee_cents),
    refundedCount: Number(r.refunded_count),
    refundedCents: Number(r.refunded_cents),
    chargedBackCount: Number(r.charged_back_count),
    chargedBackCents: Number(r.charged_back_cents),
    receivedCents: Number(r.received_cents),
  }));
}

/** All that is still to receive and all that was received, over every day of the company. */
export async function receivableTotals(ex: Ex, companyId: string): Promise<{ toReceive: number; received: number }> {
  const row = await ex
    .selectFrom('daily_totals')
    .select([sql<number>`coalesce(sum(to_receive_cents), 0)`.as('toReceive'), sql<number>`coalesce(sum(received_cents), 0)`.as('received')])
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return { toReceive: Number(row.toReceive), received: Number(row.received) };
}

/** The first `limit` expected dates with something to receive, earliest first. */
export async function nextToReceive(ex: Ex, companyId: string, limit: number): Promise<{ date: string; amount: number }[]> {
  const rows = await ex
    .selectFrom('daily_totals')
    .select([sql<string>`to_char(day, 'YYYY-MM-DD')`.as('date'), sql<number>`sum(to_receive_cents)`.as('amount')])
    .where('company_id', '=', companyId)
    .groupBy('day')
    .having(sql<number>`sum(to_receive_cents)`, '<>', 0)
    .orderBy('day')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ date: r.date, amount: Number(r.amount) }));
}
