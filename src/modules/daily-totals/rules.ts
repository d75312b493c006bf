/**
 * Pure: the changes a write makes to the daily totals (migration 022). Each
 * is a delta on one (day, shard) of a company; merge() adds up those of the
 * same row and orders them, so a database transaction takes its rows' locks
 * in one order (no two writers wait on each other's rows crosswise).
 */
import type { ReceivableRow, TransactionRow } from '../../db/types.js';
import { saoPauloDate } from '../../lib/sao-paulo-date.js';

export const SHARDS = 8;

export const AMOUNTS = [
  'paid_count',
  'paid_cents',
  'fee_cents',
  'refunded_count',
  'refunded_cents',
  'charged_back_count',
  'charged_back_cents',
  'to_receive_cents',
  'received_cents',
] as const;
type Amount = (typeof AMOUNTS)[number];

export type DayDelta = { companyId: string; day: string; shard: number } & Partial<Record<Amount, number>>;

/** The shard of a transaction's rows: any spread will do (readers sum the shards); the id's characters give one. */
export function shardOf(transactionId: string): number {
  let h = 0;
  for (let i = 0; i < transactionId.length; i++) h = (h * 31 + transactionId.charCodeAt(i)) >>> 0;
  return h % SHARDS;
}

/** A sale just paid (`row` as it is once PAID) and the lines it created, all PENDING. */
export function paidDeltas(row: TransactionRow, at: Date, lines: readonly { expected_on: string; amount_cents: number }[]): DayDelta[] {
  const key = { companyId: row.company_id, shard: shardOf(row.id) };
  return [
    { ...key, day: saoPauloDate(at), paid_count: 1, paid_cents: row.amount_cents, fee_cents: row.fee_cents },
    ...lines.map((l) => ({ ...key, day: l.expected_on, to_receive_cents: l.amount_cents })),
  ];
}

/**
 * A refund or chargeback of a PAID sale (`row` as it was before it), on the
 * day the sale was paid: the amount given back, the fee returned, the sale
 * counted once (its first refund, its chargeback); and what it did to the
 * PENDING lines (`changed`: their amounts before and after) and the
 * adjustment lines it added (PENDING, negative).
 */
export function reversalDeltas(
  row: TransactionRow,
  reversal: { kind: 'REFUND' | 'CHARGEBACK'; amountCents: number; feeReturnedCents: number },
  changed: readonly { line: Pick<ReceivableRow, 'expected_on' | 'amount_cents'>; amountCents: number }[],
  added: readonly { expected_on: string; amount_cents: number }[],
): DayDelta[] {
  if (!row.paid_at) throw new Error(`transaction ${row.id} was never paid`);
  const key = { companyId: row.company_id, shard: shardOf(row.id) };
  const sale: DayDelta = { ...key, day: saoPauloDate(row.paid_at), fee_cents: -reversal.feeReturnedCents };
  if (reversal.kind === 'REFUND') Object.assign(sale, { refunded_count: row.refunded_cents === 0 ? 1 : 0, refunded_cents: reversal.amountCents });
  else Object.assign(sale, { charged_back_count: row.charged_back_at === null ? 1 : 0, charged_back_cents: reversal.amountCents });
  return [
    sale,
    ...changed.map((c) => ({ ...key, day: c.line.expected_on, to_receive_cents: c.amountCents - c.line.amount_cents })),
    ...added.map((l) => ({ ...key, day: l.expected_on, to_receive_cents: l.amount_cents })),
  ];
}

/** Lines settled on `settledOn`, summed by company and expected date: no longer to receive, received that day. */
export function settledDeltas(groups: readonly { companyId: string; expectedOn: string; amount: number }[], settledOn: string): DayDelta[] {
  // Shard 0: the settlement is one statement of the worker, not one of many concurrent sales.
  return groups.flatMap((g) => [
    { companyId: g.companyId, day: g.expectedOn, shard: 0, to_receive_cents: -g.amount },
    { companyId: g.companyId, day: settledOn, shard: 0, received_cents: g.amount },
  ]);
}

/** The deltas of one row added up, rows that change nothing left out, ordered by company, day and shard. */
export function merge(deltas: readonly DayDelta[]): DayDelta[] {
  const rows = new Map<string, DayDelta>();
  for (const d of deltas) {
    const key = `${d.companyId}\u0000${d.day}\u0000${d.shard}`;
    const row = rows.get(key) ?? { companyId: d.companyId, day: d.day, shard: d.shard };
    for (const a of AMOUNTS) if (d[a]) row[a] = (row[a] ?? 0) + d[a];
    rows.set(key, row);
  }
  return [...rows.entries()]
    .filter(([, r]) => AMOUNTS.some((a) => r[a]))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, r]) => r);
}
