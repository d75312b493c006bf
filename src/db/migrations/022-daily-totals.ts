/**
 * The dashboard's home in constant time (issue 35): `daily_totals` holds, per
 * company and São Paulo day, the sums the home page shows, so it reads a few
 * hundred small rows instead of every sale. Kept exact by the writes that
 * change them, in their own database transaction (modules/daily-totals):
 * - by the day a sale was paid: the sales paid (count, amount), the fee kept,
 *   the sales refunded and charged back (count, amount given back);
 * - by a receivable line's expected date: what is still to receive (PENDING);
 * - by the day lines were settled: what was received.
 * A row per `shard` (0–7, from the transaction's id) so concurrent payments
 * of one company do not queue on one row; readers sum the shards.
 * The backfill computes the same sums from the rows as they are (shard 0).
 *
 * Also: the pending sales of a company by creation time (a partial index:
 * PENDING sales are the few whose payment window is open), and the
 * receivables by expected date then id (Recebíveis' order and keyset), the
 * PENDING ones apart (A receber's list starts at the next date, not a year of
 * settled lines).
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

/** Rebuilds every company's rows from the transactions and receivables (the migration, and the bench after it seeds by SQL). */
export const BACKFILL_DAILY_TOTALS = `
    INSERT INTO daily_totals (company_id, day, shard, paid_count, paid_cents, fee_cents, refunded_count, refunded_cents,
      charged_back_count, charged_back_cents, to_receive_cents, received_cents)
    SELECT company_id, day, 0, sum(paid_count), sum(paid_cents), sum(fee_cents), sum(refunded_count), sum(refunded_cents),
      sum(charged_back_count), sum(charged_back_cents), sum(to_receive_cents), sum(received_cents)
    FROM (
      SELECT company_id, (paid_at AT TIME ZONE 'America/Sao_Paulo')::date AS day, 1 AS paid_count, amount_cents AS paid_cents, fee_cents,
        CASE WHEN refunded_cents > 0 THEN 1 ELSE 0 END AS refunded_count, refunded_cents,
        CASE WHEN charged_back_at IS NOT NULL THEN 1 ELSE 0 END AS charged_back_count, charged_back_cents,
        0 AS to_receive_cents, 0 AS received_cents
      FROM transactions WHERE paid_at IS NOT NULL
      UNION ALL
      SELECT company_id, expected_on, 0, 0, 0, 0, 0, 0, 0, amount_cents, 0 FROM receivables WHERE status = 'PENDING'
      UNION ALL
      SELECT company_id, (paid_at AT TIME ZONE 'America/Sao_Paulo')::date, 0, 0, 0, 0, 0, 0, 0, 0, amount_cents FROM receivables WHERE status = 'PAID'
    ) AS parts
    GROUP BY company_id, day`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    CREATE TABLE daily_totals (
      company_id text NOT NULL REFERENCES companies(id),
      day date NOT NULL,
      shard int2 NOT NULL,
      paid_count int8 NOT NULL DEFAULT 0,
      paid_cents int8 NOT NULL DEFAULT 0,
      fee_cents int8 NOT NULL DEFAULT 0,
      refunded_count int8 NOT NULL DEFAULT 0,
      refunded_cents int8 NOT NULL DEFAULT 0,
      charged_back_count int8 NOT NULL DEFAULT 0,
      charged_back_cents int8 NOT NULL DEFAULT 0,
      to_receive_cents int8 NOT NULL DEFAULT 0,
      received_cents int8 NOT NULL DEFAULT 0,
      PRIMARY KEY (company_id, day, shard)
    );
    ${BACKFILL_DAILY_TOTALS};
    CREATE INDEX transactions_company_pending ON transactions (company_id, created_at) INCLUDE (amount_cents) WHERE status = 'PENDING';
    DROP INDEX receivables_company_expected;
    CREATE INDEX receivables_company_expected ON receivables (company_id, expected_on, id);
    CREATE INDEX receivables_company_pending_expected ON receivables (company_id, expected_on, id) WHERE status = 'PENDING';
  `,
  );
}
