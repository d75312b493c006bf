/**
 * Table types (dashboard) for Kysely: see ../types.ts.
 * The dashboard's people: users, memberships, recovery codes, invitations, sessions, the sign-in
 * lockout's rows, and the audit log.
 */
import type { Timestamp, NullableJson } from './columns.js';

export interface UsersTable {
  id: string;
  /** Lower-cased. */
  email: string;
  name: string;
  /** scrypt$<log2 N>$<r>$<p>$<salt>$<hash>: the parameters travel with the hash. */
  password_hash: string;
  /** The TOTP secret (base32), sealed; set at enrolment, confirmed when totp_enabled_at is set. */
  totp_secret_sealed: string | null;
  totp_enabled_at: Timestamp | null;
  /** The last 30-second step whose code was accepted: a code is never accepted twice. */
  totp_last_step: number | null;
  created_at: Timestamp;
}

export interface MembershipsTable {
  user_id: string;
  company_id: string;
  role: string;
  created_at: Timestamp;
}

export interface RecoveryCodesTable {
  user_id: string;
  /** SHA-256 of the normalised code, hex. */
  code_hash: string;
  used_at: Timestamp | null;
}

export interface InvitationsTable {
  /** `inv_…`: how Equipe names a pending invitation (to revoke it). */
  id: string;
  /** SHA-256 of the token, hex; the token itself is only in the URL given out. */
  token_hash: string;
  company_id: string;
  email: string;
  role: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface DashboardSessionsTable {
  /** SHA-256 of the cookie's id, hex. */
  id_hash: string;
  user_id: string;
  company_id: string;
  csrf_token: string;
  stage: 'totp' | 'active';
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  /** A half-open session's invitation (its token's hash), accepted when the code is given. */
  invitation_hash: string | null;
}

export interface SignInFailuresTable {
  email: string;
  at: Timestamp;
  /** 'password': sign-ins and re-checks; 'code': wrong two-step codes, counted on their own. */
  kind: 'password' | 'code';
  /** The attempt that reserved this row before hashing (null in rows from before migration 020). */
  id: string | null;
}

export interface SignInLockoutsTable {
  email: string;
  until: Timestamp;
}

export interface AuditLogTable {
  id: string;
  company_id: string;
  user_id: string | null;
  email: string;
  action: string;
  target: string | null;
  ip: string;
  details: NullableJson<Record<string, string | number | boolean>>;
  at: Timestamp;
}
