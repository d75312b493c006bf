/**
 * What the users module's services share: their dependencies, what a sign-in
 * answers, who did a change, and the steps of a sign-in that accepting an
 * invitation takes (SignInSteps: UserService implements them and hands
 * itself to TeamService, which does not import it).
 */
import type { Environment } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Sealer } from '../../lib/aes-gcm.js';
import type { Clock } from '../../lib/clock.js';
import type { Outcome } from '../../lib/domain-error.js';
import type { IdGenerator } from '../../lib/ids.js';
import type { AuditRecorder } from '../audit/entry.js';
import type { ScryptParams } from './password.js';
import type { UserRow } from './repo.js';
import type { LiveSession, Me } from './sessions.js';

export interface UserDeps {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  /** Seals TOTP secrets at rest. */
  sealer: Sealer;
  audit: AuditRecorder;
  env: Environment;
  /** The dashboard's address: invitation URLs and the CSRF Origin. */
  publicApiUrl: string;
  /** A member's API keys and webhooks, listed and revoked with their removal (wired in app.ts); none: nothing to list. */
  credentials?: MemberCredentials;
  /** Keys the device cookies (device-cookie.ts); none (some tests): a random key, so this process's cookies only. */
  internalKey?: Buffer;
  /** scrypt's parameters for new hashes: OWASP's unless a test asks for cheaper ones (the test kit, or DASHBOARD_TEST_PASSWORD_HASHES outside production). */
  passwordParams?: ScryptParams;
}

/** A member's active API keys and webhook registrations in one company, as Equipe lists them. */
export interface MemberCredentialList {
  keys: { id: string; name: string | null; prefix: string }[];
  /** Each registration's URL without its query (which may hold a secret). */
  webhooks: { id: string; url: string }[];
}

/**
 * What the companies and webhooks modules do with a member's keys and
 * webhooks (those they made in the dashboard), in the removal's transaction:
 * list them, or revoke the keys and delete the registrations. Answers what it
 * listed or revoked.
 */
export interface MemberCredentials {
  of(ex: Db, companyId: string, userId: string): Promise<MemberCredentialList>;
  revoke(ex: Db, companyId: string, userId: string): Promise<MemberCredentialList>;
}

/** A sign-in that went through: the cookie's new session id and what the page shows. */
export type SignedIn = { token: string; stage: 'totp' } | { token: string; stage: 'active'; me: Me };

/** Who did a change, for the audit log. */
export interface Doer {
  userId?: string;
  email: string;
  ip: string;
}

export const doerOf = (live: LiveSession, ip: string): Doer => ({ userId: live.userId, email: live.email, ip });

/** The parts of a sign-in an invitation's acceptance goes through, with the lockout and the failures of any other. */
export interface SignInSteps {
  /** Checks an existing user's password as a sign-in does (one hash at a time, the lockout, the failure counted and audited); answers the user when right. */
  checkPassword(user: UserRow, password: string, ip: string): Promise<Outcome<UserRow>>;
  hash(password: string): Promise<string>;
  /**
   * The session of a user whose password matched: active, or waiting for the
   * second step (with `invitationHash`, the invitation the code accepts).
   */
  begin(user: UserRow, ip: string, companyId?: string, invitationHash?: string): Promise<Outcome<SignedIn>>;
}
