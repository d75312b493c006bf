/**
 * Refunds and chargebacks (issue 12):
 * - refunds: one row per refund asked, written PENDING and committed before
 *   the provider is called (persist, call, persist), so a process dying in
 *   between leaves the refund id the provider knows it by; `next_check_at`
 *   is when the worker looks at a PENDING one (a devolução in progress, or an
 *   answer that never came). `request_key` ties it to its Idempotency-Key so a
 *   retry after the key's lease resumes the same refund instead of asking a
 *   second one.
 * - transactions: `refunded_cents` (SUCCEEDED refunds), `sale_fee_cents` (the
 *   fee before any refund, kept once the first refund changes `fee_cents`),
 *   `charged_back_cents` / `charged_back_at`; the amounts' check becomes
 *   fee + net + refunded + charged back = amount, or fee = net = 0 for a sale
 *   that never took money (refused, canceled before payment), which existing
 *   rows are brought to.
 * - receivables: refund and chargeback adjustment lines (`adjustment`,
 *   `refund_id`) may be negative; sale lines still may not. The one-line-per-
 *   installment rule holds for sale lines only.
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    CREATE TABLE refunds (
      id text PRIMARY KEY,
      company_id text NOT NULL REFERENCES companies(id),
      transaction_id text NOT NULL REFERENCES transactions(id),
      amount_cents int8 NOT NULL CHECK (amount_cents > 0),
      reason text,
      status text NOT NULL,
      provider text NOT NULL,
      provider_id text,
      failure_reason text,
      request_key text,
      asked_at timestamptz,
      next_check_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX refunds_transaction ON refunds (transaction_id, id);
    CREATE UNIQUE INDEX refunds_request_key ON refunds (company_id, request_key);
    CREATE INDEX refunds_pending ON refunds (next_check_at) WHERE status = 'PENDING';

    ALTER TABLE transactions ADD COLUMN refunded_cents int8 NOT NULL DEFAULT 0;
    ALTER TABLE transactions ADD COLUMN sale_fee_cents int8;
    ALTER TABLE transactions ADD COLUMN charged_back_cents int8 NOT NULL DEFAULT 0;
    ALTER TABLE transactions ADD COLUMN charged_back_at timestamptz;
    ALTER TABLE transactions DROP CONSTRAINT transactions_check;
    UPDATE transactions SET fee_cents = 0, net_amount_cents = 0 WHERE status IN ('FAILED', 'CANCELED') AND paid_at IS NULL;
    ALTER TABLE transactions ADD CONSTRAINT transactions_amounts_add_up CHECK (
      fee_cents >= 0 AND net_amount_cents >= 0 AND (
        fee_cents + net_amount_cents + refunded_cents + charged_back_cents = amount_cents
        OR (paid_at IS NULL AND fee_cents = 0 AND net_amount_cents = 0)
      )
    );

    ALTER TABLE receivables ADD COLUMN adjustment text;
    ALTER TABLE receivables ADD COLUMN refund_id text;
    ALTER TABLE receivables DROP CONSTRAINT receivables_gross_amount_cents_check;
    ALTER TABLE receivables DROP CONSTRAINT receivables_fee_cents_check;
    ALTER TABLE receivables DROP CONSTRAINT receivables_amount_cents_check;
    ALTER TABLE receivables ADD CONSTRAINT receivables_sale_lines_not_negative
      CHECK (adjustment IS NOT NULL OR (gross_amount_cents >= 0 AND fee_cents >= 0 AND amount_cents >= 0));
    ALTER TABLE receivables DROP CONSTRAINT receivables_transaction_id_recipient_document_installment_key;
    CREATE UNIQUE INDEX receivables_sale_line ON receivables (transaction_id, recipient_document, installment) WHERE adjustment IS NULL;
    CREATE UNIQUE INDEX receivables_adjustment_line ON receivables (transaction_id, recipient_document, adjustment, (coalesce(refund_id, ''))) WHERE adjustment IS NOT NULL
    `,
  );
}
