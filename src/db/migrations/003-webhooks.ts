/** Webhook registrations, one delivery per (event, registration), and the log of every attempt. */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    CREATE TABLE webhooks (
      id text PRIMARY KEY,
      company_id text NOT NULL REFERENCES companies(id),
      url text NOT NULL,
      events jsonb NOT NULL,
      description text,
      secret_sealed text NOT NULL,
      active boolean NOT NULL,
      created_at timestamptz NOT NULL,
      deleted_at timestamptz
    );
    CREATE INDEX webhooks_company_active ON webhooks (company_id) WHERE active;

    CREATE TABLE webhook_deliveries (
      id text PRIMARY KEY,
      company_id text NOT NULL REFERENCES companies(id),
      webhook_id text NOT NULL REFERENCES webhooks(id),
      event_id text NOT NULL REFERENCES events(id),
      state text NOT NULL,
      attempts int NOT NULL,
      next_attempt_at timestamptz NOT NULL,
      locked_until timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'PENDING';
    CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id);

    CREATE TABLE webhook_attempts (
      id text PRIMARY KEY,
      company_id text NOT NULL,
      delivery_id text NOT NULL REFERENCES webhook_deliveries(id),
      webhook_id text NOT NULL,
      event_id text NOT NULL,
      attempt int NOT NULL,
      attempted_at timestamptz NOT NULL,
      status_code int,
      error text,
      duration_ms int NOT NULL,
      succeeded boolean NOT NULL,
      UNIQUE (delivery_id, attempt)
    );
    CREATE INDEX webhook_attempts_webhook ON webhook_attempts (webhook_id, id);
    CREATE INDEX events_company_type ON events (company_id, type, id);
  `,
  );
}
