/** Companies, keys, recipient accounts, intents, transactions, the outbox, idempotency keys. */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    CREATE TABLE companies (
      id text PRIMARY KEY,
      name text NOT NULL,
      document text NOT NULL UNIQUE,
      fee_plan jsonb NOT NULL,
      created_at timestamptz NOT NULL
    );

    CREATE TABLE api_keys (
      id text PRIMARY KEY,
      company_id text NOT NULL REFERENCES companies(id),
      environment text NOT NULL,
      token_hash text NOT NULL UNIQUE,
      hint text NOT NULL,
      scopes jsonb,
      created_at timestamptz NOT NULL,
      revoked_at timestamptz
    );
    CREATE INDEX api_keys_company ON api_keys (company_id, id);

    CREATE TABLE accounts (
      document text PRIMARY KEY,
      name text NOT NULL,
      status text NOT NULL,
      created_at timestamptz NOT NULL,
      approved_at timestamptz
    );

    CREATE TABLE payment_intents (
      id text PRIMARY KEY,
      company_id text NOT NULL REFERENCES companies(id),
      status text NOT NULL,
      amount_cents int8 NOT NULL CHECK (amount_cents > 0),
      payment_method text NOT NULL,
      installments int NOT NULL,
      reference_id text NOT NULL,
      description text,
      buyer jsonb NOT NULL,
      split_rules jsonb,
      metadata jsonb,
      pix_expires_in_seconds int,
      boleto_due_date date,
      expires_at timestamptz NOT NULL,
      confirm_started_at timestamptz,
      confirm_key text,
      create_key text,
      transaction_id text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX payment_intents_company ON payment_intents (company_id, id);
    CREATE UNIQUE INDEX payment_intents_create_key ON payment_intents (company_id, create_key) WHERE create_key IS NOT NULL;
    CREATE INDEX payment_intents_confirming ON payment_intents (confirm_started_at)
      WHERE confirm_started_at IS NOT NULL AND status IN ('REQUIRES_TOKEN', 'REQUIRES_CONFIRMATION');
    CREATE INDEX payment_intents_unconfirmed ON payment_intents (expires_at)
      WHERE status IN ('REQUIRES_TOKEN', 'REQUIRES_CONFIRMATION');

    CREATE TABLE transactions (
      id text PRIMARY KEY,
      company_id text NOT NULL REFERENCES companies(id),
      payment_intent_id text NOT NULL UNIQUE REFERENCES payment_intents(id),
      status text NOT NULL,
      payment_method text NOT NULL,
      installments int NOT NULL,
      amount_cents int8 NOT NULL,
      fee_cents int8 NOT NULL,
      net_amount_cents int8 NOT NULL,
      reference_id text NOT NULL,
      description text,
      buyer jsonb NOT NULL,
      payment_details jsonb NOT NULL,
      metadata jsonb,
      split_rules jsonb,
      cancel_at timestamptz,
      paid_at timestamptz,
      canceled_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CHECK (fee_cents + net_amount_cents = amount_cents)
    );
    CREATE INDEX transactions_company ON transactions (company_id, id);
    CREATE INDEX transactions_company_reference ON transactions (company_id, reference_id);
    CREATE INDEX transactions_pending_cancel ON transactions (cancel_at) WHERE status = 'PENDING';

    CREATE TABLE events (
      id text PRIMARY KEY,
      company_id text NOT NULL REFERENCES companies(id),
      type text NOT NULL,
      transaction_id text NOT NULL,
      body text NOT NULL,
      created_at timestamptz NOT NULL
    );
    CREATE INDEX events_company ON events (company_id, id);

    CREATE TABLE idempotency_keys (
      company_id text NOT NULL,
      key text NOT NULL,
      fingerprint text NOT NULL,
      state text NOT NULL,
      response_status int,
      response_body text,
      locked_until timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (company_id, key)
    );
    CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

    CREATE TABLE acquirer_charges (
      reference text PRIMARY KEY,
      method text NOT NULL,
      amount_cents int8 NOT NULL,
      outcome jsonb NOT NULL,
      created_at timestamptz NOT NULL
    );

    CREATE SEQUENCE boleto_number_seq;
  `,
  );
}
