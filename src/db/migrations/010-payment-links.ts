/**
 * Payment links (issue 12): a link is a reusable charge with a hosted page
 * (GET /pay/{id}). Every payment made through it is an ordinary intent and
 * transaction that names the link (`payment_link_id`), so the link's slots
 * (`max_payments`) are counted from those rows, never from a counter that
 * could drift from them.
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    CREATE TABLE payment_links (
      id text PRIMARY KEY,
      company_id text NOT NULL REFERENCES companies (id),
      amount_cents int8 NOT NULL CHECK (amount_cents > 0),
      description text NOT NULL,
      payment_methods jsonb NOT NULL,
      max_installments int4 NOT NULL CHECK (max_installments BETWEEN 1 AND 12),
      split_rules jsonb,
      expires_at timestamptz,
      max_payments int4 CHECK (max_payments > 0),
      metadata jsonb,
      reference_id text,
      canceled_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX payment_links_company ON payment_links (company_id, id);

    ALTER TABLE payment_intents ADD COLUMN payment_link_id text;
    CREATE INDEX payment_intents_link ON payment_intents (payment_link_id) WHERE payment_link_id IS NOT NULL;

    ALTER TABLE transactions ADD COLUMN payment_link_id text;
    CREATE INDEX transactions_link ON transactions (company_id, payment_link_id, id) WHERE payment_link_id IS NOT NULL;
    `,
  );
}
