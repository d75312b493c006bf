/**
 * The seller's dashboard (issue 27): the people who sign in and what they may
 * do, their sessions, and the audit log.
 * - `users`: one per e-mail (stored lower-cased); the password as a scrypt
 *   string that names its own parameters; the TOTP secret sealed with the
 *   app's key, when it was turned on, and the last time step accepted (a code
 *   is never accepted twice).
 * - `memberships`: a user's one role in one company; `companies.require_totp`
 *   makes two-step verification compulsory for its members.
 * - `recovery_codes`, `invitations`, `dashboard_sessions`: only hashes of
 *   what a person holds (codes, invitation tokens, session ids) are stored.
 * - `sign_in_failures` and `sign_in_lockouts`: the per-e-mail lockout,
 *   shared by every process through the database.
 * - `audit_log`: append-only, by company, time-ordered ids.
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    CREATE TABLE users (
      id text PRIMARY KEY,
      email text NOT NULL UNIQUE CHECK (email = lower(email)),
      name text NOT NULL,
      password_hash text NOT NULL,
      totp_secret_sealed text,
      totp_enabled_at timestamptz,
      totp_last_step int8,
      created_at timestamptz NOT NULL
    );

    CREATE TABLE memberships (
      user_id text NOT NULL REFERENCES users (id),
      company_id text NOT NULL REFERENCES companies (id),
      role text NOT NULL CHECK (role IN ('admin', 'finance', 'developer', 'viewer')),
      created_at timestamptz NOT NULL,
      PRIMARY KEY (user_id, company_id)
    );
    CREATE INDEX memberships_company ON memberships (company_id, role);

    ALTER TABLE companies ADD COLUMN require_totp boolean NOT NULL DEFAULT false;

    CREATE TABLE recovery_codes (
      user_id text NOT NULL REFERENCES users (id),
      code_hash text NOT NULL,
      used_at timestamptz,
      PRIMARY KEY (user_id, code_hash)
    );

    CREATE TABLE invitations (
      token_hash text PRIMARY KEY,
      company_id text NOT NULL REFERENCES companies (id),
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ('admin', 'finance', 'developer', 'viewer')),
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    );
    CREATE INDEX invitations_expiry ON invitations (expires_at);

    CREATE TABLE dashboard_sessions (
      id_hash text PRIMARY KEY,
      user_id text NOT NULL REFERENCES users (id),
      company_id text NOT NULL REFERENCES companies (id),
      csrf_token text NOT NULL,
      stage text NOT NULL CHECK (stage IN ('totp', 'active')),
      created_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX dashboard_sessions_user ON dashboard_sessions (user_id);
    CREATE INDEX dashboard_sessions_expiry ON dashboard_sessions (expires_at);

    CREATE TABLE sign_in_failures (
      email text NOT NULL,
      at timestamptz NOT NULL
    );
    CREATE INDEX sign_in_failures_email ON sign_in_failures (email, at);

    CREATE TABLE sign_in_lockouts (
      email text PRIMARY KEY,
      until timestamptz NOT NULL
    );

    CREATE TABLE audit_log (
      id text PRIMARY KEY,
      company_id text NOT NULL,
      user_id text,
      email text NOT NULL,
      action text NOT NULL,
      target text,
      ip text NOT NULL,
      details jsonb,
      at timestamptz NOT NULL
    );
    CREATE INDEX audit_log_company ON audit_log (company_id, id);
    CREATE INDEX audit_log_company_action ON audit_log (company_id, action, id);
    CREATE INDEX audit_log_company_user ON audit_log (company_id, user_id, id);
    CREATE INDEX audit_log_at ON audit_log (at);
    `,
  );
}
