/** Receivables: one line per account and per installment of a paid transaction. */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    CREATE TABLE receivables (
      id text PRIMARY KEY,
      company_id text NOT NULL REFERENCES companies(id),
      transaction_id text NOT NULL REFERENCES transactions(id),
      recipient_document text NOT NULL,
      role text NOT NULL,
      installment int NOT NULL,
      position int NOT NULL,
      gross_amount_cents int8 NOT NULL CHECK (gross_amount_cents >= 0),
      fee_cents int8 NOT NULL CHECK (fee_cents >= 0),
      amount_cents int8 NOT NULL CHECK (amount_cents >= 0),
      expected_on date NOT NULL,
      status text NOT NULL,
      paid_at timestamptz,
      created_at timestamptz NOT NULL,
      CHECK (gross_amount_cents = fee_cents + amount_cents),
      UNIQUE (transaction_id, recipient_document, installment)
    );
    CREATE INDEX receivables_company ON receivables (company_id, id);
    CREATE INDEX receivables_company_expected ON receivables (company_id, expected_on);
    CREATE INDEX receivables_company_recipient ON receivables (company_id, recipient_document);
    CREATE INDEX receivables_due ON receivables (expected_on) WHERE status = 'PENDING';
  `,
  );
}
