/**
 * The vault's own tables, in schema `vault`: its RSA key pairs (private halves
 * sealed under the master key), card tokens (card data sealed, CVV erased once
 * used or expired), and tokenize attempt counters (card-testing defence).
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    CREATE SCHEMA vault;

    CREATE TABLE vault.keys (
      key_id text PRIMARY KEY,
      public_jwk jsonb NOT NULL,
      private_sealed text NOT NULL,
      created_at timestamptz NOT NULL,
      superseded_at timestamptz
    );

    CREATE TABLE vault.tokens (
      id text PRIMARY KEY,
      token_hash text NOT NULL UNIQUE,
      intent_id text NOT NULL,
      company_id text NOT NULL,
      brand text NOT NULL,
      last4 text NOT NULL,
      exp_month int NOT NULL,
      exp_year int NOT NULL,
      card_sealed text NOT NULL,
      cvv_sealed text,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL
    );
    CREATE INDEX vault_tokens_cvv_expiry ON vault.tokens (expires_at) WHERE cvv_sealed IS NOT NULL;

    CREATE TABLE vault.attempts (
      scope text NOT NULL,
      key text NOT NULL,
      window_start timestamptz NOT NULL,
      count int NOT NULL,
      PRIMARY KEY (scope, key, window_start)
    );
  `,
  );
}
