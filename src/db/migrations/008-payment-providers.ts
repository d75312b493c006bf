/**
 * Real payment providers (issue 10):
 * - payment_intents.reserved_transaction_id: the transaction's id, chosen when
 *   the confirmation is claimed, so every retry sends the provider the same
 *   key (the Pix txid is derived from it);
 * - provider_charges: what a real connector registered, keyed by our
 *   reference (the intent id), written before the call (persist, call,
 *   persist): the provider's key (Pix txid, Cielo MerchantOrderId), then its
 *   id (Cielo PaymentId); `checked_at` / `settled_at` drive reconciliation;
 * - provider_notifications: the payment ids a provider's notification
 *   claimed, stored before answering it, verified later by the worker;
 * - received_payments: every payment the provider confirmed, once per
 *   payment id (Pix endToEndId, Cielo PaymentId), and what it did.
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    ALTER TABLE payment_intents ADD COLUMN reserved_transaction_id text;

    CREATE TABLE provider_charges (
      reference text PRIMARY KEY,
      provider text NOT NULL,
      method text NOT NULL,
      provider_key text NOT NULL,
      provider_id text,
      transaction_id text,
      amount_cents int8 NOT NULL CHECK (amount_cents > 0),
      created_at timestamptz NOT NULL,
      checked_at timestamptz,
      settled_at timestamptz
    );
    CREATE UNIQUE INDEX provider_charges_key ON provider_charges (provider, provider_key);
    CREATE INDEX provider_charges_id ON provider_charges (provider, provider_id);
    CREATE INDEX provider_charges_unsettled ON provider_charges (provider, checked_at) WHERE settled_at IS NULL;

    CREATE TABLE provider_notifications (
      id int8 GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      provider text NOT NULL,
      payment_id text NOT NULL,
      received_at timestamptz NOT NULL,
      attempts int4 NOT NULL DEFAULT 0,
      processed_at timestamptz,
      outcome text
    );
    CREATE INDEX provider_notifications_pending ON provider_notifications (received_at) WHERE processed_at IS NULL;

    CREATE TABLE received_payments (
      provider text NOT NULL,
      payment_id text NOT NULL,
      reference text NOT NULL,
      transaction_id text,
      amount_cents int8 NOT NULL,
      paid_at timestamptz NOT NULL,
      recorded_at timestamptz NOT NULL,
      outcome text NOT NULL,
      PRIMARY KEY (provider, payment_id)
    );
    CREATE INDEX received_payments_reference ON received_payments (reference);
    `,
  );
}
