/**
 * The dashboard's status filter for what became of a paid sale (Reembolsado,
 * Reembolso parcial, Contestado: transactions/selection.ts REFUND_STATES).
 * Few sales are refunded or charged back, so a filter on them over the
 * company's id index would read every sale to find a page; these partial
 * indexes hold only those sales, in the list's (company, id) order.
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    CREATE INDEX transactions_company_refunded ON transactions (company_id, id) WHERE refunded_cents > 0;
    CREATE INDEX transactions_company_charged_back ON transactions (company_id, id) WHERE charged_back_cents > 0;
    `,
  );
}
