/**
 * All SQL on users, memberships, recovery codes, invitations, dashboard
 * sessions and the sign-in lockout. The executor is always the first parameter.
 */
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { DashboardSessionsTable, UsersTable } from '../../db/types.js';
import type { Role } from './roles.js';

export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<DashboardSessionsTable>;

// ---- users ------------------------------------------------------------------

export async function userByEmail(ex: Db, email: string): Promise<UserRow | undefined> {
  return ex.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function userById(ex: Db, id: string): Promise<UserRow | undefined> {
  return ex.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUser(ex: Db, row: { id: string; email: string; name: string; passwordHash: string; at: Date }): Promise<void> {
  await ex.insertInto('users').values({ id: row.id, email: row.email, name: row.name, password_hash: row.passwordHash, created_at: row.at }).execute();
}

export async function setPasswordHash(ex: Db, userId: string, hash: string): Promise<void> {
  await ex.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
}

/** A new secret waiting for its first code (two-step verification stays off until then). */
export async function setPendingTotp(ex: Db, userId: string, sealed: string): Promise<void> {
  await ex.updateTable('users').set({ totp_secret_sealed: sealed, totp_enabled_at: null, totp_last_step: null }).where('id', '=', userId).execute();
}

export async function enableTotp(ex: Db, userId: string, at: Date, step: number): Promise<void> {
  await ex.updateTable('users').set({ totp_enabled_at: at, totp_last_step: step }).where('id', '=', userId).execute();
}

export async function disableTotp(ex: Db, userId: string): Promise<void> {
  await ex.updateTable('users').set({ totp_secret_sealed: null, totp_enabled_at: null, totp_last_step: null }).where('id', '=', userId).execute();
  await ex.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
}

/** Takes `step` as the last code used, unless a code of it or a later step was used already (a replay, or a race). */
export async function useTotpStep(ex: Db, userId: string, step: number): Promise<boolean> {
  const result = await ex
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// ---- recovery codes ---------------------------------------------------------

export async function replaceRecoveryCodes(ex: Db, userId: string, hashes: string[]): Promise<void> {
  await ex.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await ex.insertInto('recovery_codes').values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null }))).execute();
}

/** Spends an unused recovery code; false when there is none with that hash. */
export async function useRecoveryCode(ex: Db, userId: string, hash: string, at: Date): Promise<boolean> {
  const result = await ex
    .updateTable('recovery_codes')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// ---- memberships and companies ---------------------------------------------

export interface MembershipRow {
  companyId: string;
  companyName: string;
  role: Role;
  requireTotp: boolean;
}

export async function membershipsOf(ex: Db, userId: string): Promise<MembershipRow[]> {
  const rows = await ex
    .selectFrom('memberships as m')
    .innerJoin('companies as c', 'c.id', 'm.company_id')
    .select(['m.company_id', 'c.name', 'm.role', 'c.require_totp'])
    .where('m.user_id', '=', userId)
    .orderBy('c.name')
    .orderBy('m.company_id')
    .execute();
  return rows.map((r) => ({ companyId: r.company_id, companyName: r.name, role: r.role as Role, requireTotp: r.require_totp }));
}

export async function roleIn(ex: Db, userId: string, companyId: string): Promise<Role | undefined> {
  const row = await ex.selectFrom('memberships').select('role').where('user_id', '=', userId).where('company_id', '=', companyId).executeTakeFirst();
  return row?.role as Role | undefined;
}

/** Adds the membership unless the user already has one in the company; answers whether it was added. */
export async function insertMembership(ex: Db, row: { userId: string; companyId: string; role: Role; at: Date }): Promise<boolean> {
  const inserted = await ex
    .insertInto('memberships')
    .values({ user_id: row.userId, company_id: row.companyId, role: row.role, created_at: row.at })
    .onConflict((oc) => oc.columns(['user_id', 'company_id']).doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function setRole(ex: Db, userId: string, companyId: string, role: Role): Promise<void> {
  await ex.updateTable('memberships').set({ role }).where('user_id', '=', userId).where('company_id', '=', companyId).execute();
}

export async function deleteMembership(ex: Db, userId: string, companyId: string): Promise<void> {
  await ex.deleteFrom('memberships').where('user_id', '=', userId).where('company_id', '=', companyId).execute();
  await ex.deleteFrom('dashboard_sessions').where('user_id', '=', userId).where('company_id', '=', companyId).execute();
}

/**
 * Locks the company row and counts its admins: two admins demoting each
 * other at once are serialised, so one of them always stays.
 */
export async function lockedAdminCount(ex: Db, companyId: string): Promise<number> {
  await ex.selectFrom('companies').select('id').where('id', '=', companyId).forUpdate().executeTakeFirst();
  const row = await ex
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('company_id', '=', companyId)
    .where('role', '=', 'admin')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function company(ex: Db, companyId: string): Promise<{ id: string; name: string; requireTotp: boolean } | undefined> {
  const row = await ex.selectFrom('companies').select(['id', 'name', 'require_totp']).where('id', '=', companyId).executeTakeFirst();
  return row ? { id: row.id, name: row.name, requireTotp: row.require_totp } : undefined;
}

export async function setRequireTotp(ex: Db, companyId: string, value: boolean): Promise<void> {
  await ex.updateTable('companies').set({ require_totp: value }).where('id', '=', companyId).execute();
}

export interface MemberRow {
  userId: string;
  email: string;
  name: string;
  role: Role;
  totpEnabled: boolean;
}

export async function members(ex: Db, companyId: string): Promise<MemberRow[]> {
  const rows = await ex
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.name', 'm.role', 'u.totp_enabled_at'])
    .where('m.company_id', '=', companyId)
    .orderBy('u.email')
    .execute();
  return rows.map((r) => ({ userId: r.id, email: r.email, name: r.name, role: r.role as Role, totpEnabled: r.totp_enabled_at !== null }));
}

// ---- invitations ------------------------------------------------------------

export async function insertInvitation(ex: Db, row: { id: string; tokenHash: string; companyId: string; email: string; role: Role; at: Date; expiresAt: Date }): Promise<void> {
  await ex
    .insertInto('invitations')
    .values({ id: row.id, token_hash: row.tokenHash, company_id: row.companyId, email: row.email, role: row.role, created_at: row.at, expires_at: row.expiresAt, used_at: null })
    .execute();
}

export interface LiveInvitation {
  companyId: string;
  companyName: string;
  email: string;
  role: Role;
}

/** An invitation not used and not expired at `at`, with `lock` taken FOR UPDATE (accepting it). */
export async function liveInvitation(ex: Db, tokenHash: string, at: Date, lock = false): Promise<LiveInvitation | undefined> {
  let query = ex
    .selectFrom('invitations as i')
    .innerJoin('companies as c', 'c.id', 'i.company_id')
    .select(['i.company_id', 'c.name', 'i.email', 'i.role'])
    .where('i.token_hash', '=', tokenHash)
    .where('i.used_at', 'is', null)
    .where('i.expires_at', '>', at);
  if (lock) query = query.forUpdate('i');
  const row = await query.executeTakeFirst();
  return row ? { companyId: row.company_id, companyName: row.name, email: row.email, role: row.role as Role } : undefined;
}

export interface PendingInvitationRow {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
}

const pendingView = (r: { id: string; email: string; role: string; created_at: Date; expires_at: Date }): PendingInvitationRow => ({
  id: r.id,
  email: r.email,
  role: r.role as Role,
  createdAt: r.created_at.toISOString(),
  expiresAt: r.expires_at.toISOString(),
});

/** A company's invitations neither used nor expired at `at`, the newest first. */
export async function pendingInvitations(ex: Db, companyId: string, at: Date): Promise<PendingInvitationRow[]> {
  const rows = await ex
    .selectFrom('invitations')
    .select(['id', 'email', 'role', 'created_at', 'expires_at'])
    .where('company_id', '=', companyId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(pendingView);
}

/** Deletes a company's pending invitation (its token then finds nothing); undefined when there is none with that id. */
export async function deletePendingInvitation(ex: Db, companyId: string, id: string, at: Date): Promise<PendingInvitationRow | undefined> {
  const row = await ex
    .deleteFrom('invitations')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .returning(['id', 'email', 'role', 'created_at', 'expires_at'])
    .executeTakeFirst();
  return row ? pendingView(row) : undefined;
}

export async function useInvitation(ex: Db, tokenHash: string, at: Date): Promise<void> {
  await ex.updateTable('invitations').set({ used_at: at }).where('token_hash', '=', tokenHash).execute();
}

// ---- sessions ---------------------------------------------------------------

export async function insertSession(ex: Db, row: SessionRow): Promise<void> {
  await ex.insertInto('dashboard_sessions').values(row).execute();
}

export async function sessionByHash(ex: Db, idHash: string): Promise<SessionRow | undefined> {
  return ex.selectFrom('dashboard_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
}

export async function touchSession(ex: Db, idHash: string, at: Date): Promise<void> {
  await ex.updateTable('dashboard_sessions').set({ last_seen_at: at }).where('id_hash', '=', idHash).execute();
}

export async function setSessionCompany(ex: Db, idHash: string, companyId: string): Promise<void> {
  await ex.updateTable('dashboard_sessions').set({ company_id: companyId }).where('id_hash', '=', idHash).execute();
}

export async function deleteSession(ex: Db, idHash: string): Promise<void> {
  await ex.deleteFrom('dashboard_sessions').where('id_hash', '=', idHash).execute();
}

/** Ends every session of the user but `keep` (a password change keeps the session that made it). */
export async function deleteUserSessions(ex: Db, userId: string, keep?: string): Promise<void> {
  let query = ex.deleteFrom('dashboard_sessions').where('user_id', '=', userId);
  if (keep) query = query.where('id_hash', '<>', keep);
  await query.execute();
}

// ---- the sign-in lockout ----------------------------------------------------

export async function lockedUntil(ex: Db, email: string, at: Date): Promise<Date | undefined> {
  const row = await ex.selectFrom('sign_in_lockouts').select('until').where('email', '=', email).where('until', '>', at).executeTakeFirst();
  return row ? new Date(row.until) : undefined;
}

export type FailureKind = 'password' | 'code';

/** The e-mail's transaction lock: a reservation and a lock of one e-mail are one at a time, in any process. */
async function lockAttemptsOf(trx: Db, email: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`sign-in:${email}`}))`.execute(trx);
}

/**
 * Counts an attempt of `email` as a failure before it is checked (row `id`),
 * unless the e-mail is locked at `row.at` (answers the lock's end) or `max`
 * failures of `kind` are in the window already; answers how many there are
 * with it (more than `max`: refused, nothing written). The e-mail's
 * transaction lock makes the lock's check, the count and the insert one step
 * (lockEmail takes it too), so of attempts made at once, in whatever
 * process, no more than `max` pass.
 */
export async function reserveAttempt(db: Db, row: { email: string; kind: FailureKind; id: string; at: Date }, windowStart: Date, max: number): Promise<{ lockedUntil: Date } | { count: number }> {
  return db.transaction().execute(async (trx) => {
    await lockAttemptsOf(trx, row.email);
    const until = await lockedUntil(trx, row.email, row.at);
    if (until) return { lockedUntil: until };
    const count = await failureCount(trx, row.email, row.kind, windowStart);
    if (count < max) await trx.insertInto('sign_in_failures').values(row).execute();
    return { count: count + 1 };
  });
}

export async function failureCount(ex: Db, email: string, kind: FailureKind, windowStart: Date): Promise<number> {
  const row = await ex
    .selectFrom('sign_in_failures')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('email', '=', email)
    .where('kind', '=', kind)
    .where('at', '>', windowStart)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Takes back the failure an attempt reserved (its password or code was right). */
export async function takeBackAttempt(ex: Db, id: string): Promise<void> {
  await ex.deleteFrom('sign_in_failures').where('id', '=', id).execute();
}

/** Locks `email` until `until` and forgets its failures (the count starts again after the lock), under the e-mail's transaction lock. */
export async function lockEmail(db: Db, email: string, until: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockAttemptsOf(trx, email);
    await trx
      .insertInto('sign_in_lockouts')
      .values({ email, until })
      .onConflict((oc) => oc.column('email').doUpdateSet({ until }))
      .execute();
    await trx.deleteFrom('sign_in_failures').where('email', '=', email).execute();
  });
}

/** Forgets every failure of `email`, passwords and codes (a whole sign-in went through). */
export async function clearFailures(ex: Db, email: string): Promise<void> {
  await ex.deleteFrom('sign_in_failures').where('email', '=', email).execute();
}

// ---- purge ------------------------------------------------------------------

/** Deletes expired sessions, failures out of the window, ended lockouts and invitations expired a week ago; answers how many rows went. */
export async function purgeDead(ex: Db, at: Date, failuresBefore: Date, invitationsBefore: Date): Promise<number> {
  const counts = await Promise.all([
    ex.deleteFrom('dashboard_sessions').where('expires_at', '<=', at).executeTakeFirst(),
    ex.deleteFrom('sign_in_failures').where('at', '<=', failuresBefore).executeTakeFirst(),
    ex.deleteFrom('sign_in_lockouts').where('until', '<=', at).executeTakeFirst(),
    ex.deleteFrom('invitations').where('expires_at', '<=', invitationsBefore).executeTakeFirst(),
  ]);
  return counts.reduce((sum, r) => sum + Number(r.numDeletedRows), 0);
}


export interface SessionMember {
  session: SessionRow;
  email: string;
  name: string;
  totpEnabled: boolean;
  companyName: string;
  requireTotp: boolean;
  /** Undefined when the user is no longer a member of the session's company. */
  role: Role | undefined;
}

/** A session with its user, its company and the user's role there, in one query (every dashboard request makes it). */
export async function sessionWithMember(ex: Db, idHash: string): Promise<SessionMember | undefined> {
  const row = await ex
    .selectFrom('dashboard_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .innerJoin('companies as c', 'c.id', 's.company_id')
    .leftJoin('memberships as m', (join) => join.onRef('m.user_id', '=', 's.user_id').onRef('m.company_id', '=', 's.company_id'))
    .selectAll('s')
    .select(['u.email', 'u.name', 'u.totp_enabled_at', 'c.name as company_name', 'c.require_totp', 'm.role'])
    .where('s.id_hash', '=', idHash)
    .executeTakeFirst();
  if (!row) return undefined;
  const { email, name, totp_enabled_at, company_name, require_totp, role, ...session } = row;
  return { session, email, name, totpEnabled: totp_enabled_at !== null, companyName: company_name, requireTotp: require_totp, role: (role ?? undefined) as Role | undefined };
}
