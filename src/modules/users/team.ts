/**
 * Invitations and a company's members. An invitation is a random token given
 * out once in a URL whose fragment holds it (a fragment never reaches a server
 * log or a Referer); only its SHA-256 is stored, it works once and for 72
 * hours, until an admin revokes it (Equipe lists the pending ones). Accepting
 * it creates the user (name and password) or, for an e-mail that has one,
 * takes that user's password, adds the membership and signs in. What the
 * token shows does not say whether the e-mail has a user: the admin who made
 * the invitation holds the token too, and must not learn of accounts in other
 * companies from it (the page asks for a name only when accepting says so).
 *
 * Removing a member lists or revokes the API keys and webhooks they made
 * (deps.credentials), in the removal's transaction, each revocation audited.
 *
 * A company always keeps an admin: demoting or removing its last one is 409
 * LAST_ADMIN, decided under a lock of the company row so that two admins
 * demoting each other at once cannot both succeed.
 */
import type { Db } from '../../db/database.js';
import { transact } from '../../db/transact.js';
import { DomainError, isDomainError, validationError, validationFailure, type ErrorDetail, type Outcome } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import type { Doer, MemberCredentialList, SignedIn, SignInSteps, UserDeps } from './deps.js';
import { hashPassword, type ScryptParams } from './password.js';
import * as repo from './repo.js';
import type { Role } from './roles.js';
import { checkEmail, checkPassword, INVITATION_MS, MAX_NAME_LENGTH, normalizeEmail, opaqueToken, sha256 } from './rules.js';

export interface InvitationView {
  email: string;
  companyName: string;
  role: Role;
}

/** A pending invitation as Equipe lists it (never its token). */
export type PendingInvitation = repo.PendingInvitationRow;

/** What a member's removal did with their keys and webhooks, and which they were. */
export interface Removal extends MemberCredentialList {
  userId: string;
  credentials: 'revoked' | 'kept';
}

const NO_CREDENTIALS: MemberCredentialList = { keys: [], webhooks: [] };

export interface Acceptance {
  name?: string | undefined;
  password: string;
  passwordConfirmation?: string | undefined;
}

export type Member = repo.MemberRow;

export class TeamService {
  constructor(
    private readonly deps: UserDeps,
    private readonly users: SignInSteps,
  ) {}

  private get db(): Db {
    return this.deps.db;
  }

  /** A new invitation to `companyId` as `role`; answers its URL (the token is in it, and nowhere else). */
  async invite(companyId: string, rawEmail: string, role: Role, by: Doer): Promise<Outcome<{ id: string; url: string; expiresAt: string }>> {
    const company = await repo.company(this.db, companyId);
    if (!company) return new DomainError('NOT_FOUND', ERRORS.NOT_FOUND.company({ id: companyId }));
    const email = normalizeEmail(rawEmail);
    const invalid = checkEmail(email);
    if (invalid) return invalid;
    const existing = await repo.userByEmail(this.db, email);
    if (existing && (await repo.roleIn(this.db, existing.id, companyId))) return validationError('email', PROBLEMS.alreadyMember);
    const token = opaqueToken();
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + INVITATION_MS);
    const id = this.deps.newId('inv');
    await this.db.transaction().execute(async (trx) => {
      await repo.insertInvitation(trx, { id, tokenHash: sha256(token), companyId, email, role, at: now, expiresAt });
      await this.deps.audit.record(trx, { companyId, ...by, action: 'member.invited', target: id, details: { email, role } });
    });
    return { id, url: `${this.deps.publicApiUrl}/dashboard/invitation#${token}`, expiresAt: expiresAt.toISOString() };
  }

  /** The company's invitations neither used nor expired, the newest first. */
  async pendingInvitations(companyId: string): Promise<{ data: PendingInvitation[] }> {
    return { data: await repo.pendingInvitations(this.db, companyId, this.deps.clock.now()) };
  }

  /** Revokes a pending invitation: its token is refused from then on (404, like a used one). */
  async revokeInvitation(companyId: string, id: string, by: Doer): Promise<Outcome<PendingInvitation>> {
    return transact(this.db, async (trx) => {
      const revoked = await repo.deletePendingInvitation(trx, companyId, id, this.deps.clock.now());
      if (!revoked) return new DomainError('NOT_FOUND', ERRORS.NOT_FOUND.invitation);
      await this.deps.audit.record(trx, { companyId, ...by, action: 'invitation.revoked', target: id, details: { email: revoked.email, role: revoked.role } });
      return revoked;
    });
  }

  /** What the invitation page shows; 404 when the token is unknown, used or expired. */
  async invitation(token: string): Promise<Outcome<InvitationView>> {
    const found = await repo.liveInvitation(this.db, sha256(token), this.deps.clock.now());
    if (!found) return new DomainError('NOT_FOUND', ERRORS.NOT_FOUND.invitation);
    return { email: found.email, companyName: found.companyName, role: found.role };
  }

  /**
   * Accepts an invitation and signs in. The password is checked or hashed
   * before the transaction (scrypt takes a few hundred milliseconds); the
   * transaction then takes the invitation under lock, so it is used once.
   * An existing user with two-step verification joins only once the code is
   * given (the half-open session carries the invitation to the code step).
   */
  async accept(token: string, body: Acceptance, ip: string): Promise<Outcome<SignedIn>> {
    const tokenHash = sha256(token);
    const found = await repo.liveInvitation(this.db, tokenHash, this.deps.clock.now());
    if (!found) return new DomainError('NOT_FOUND', ERRORS.NOT_FOUND.invitation);
    const existing = await repo.userByEmail(this.db, found.email);
    let newHash: string | undefined;
    if (existing) {
      const checked = await this.users.checkPassword(existing, body.password, ip);
      if (isDomainError(checked)) return checked;
      if (checked.totp_enabled_at) return this.users.begin(checked, ip, found.companyId, tokenHash);
    } else {
      const invalid = checkNewUser(body, found.email);
      if (invalid) return invalid;
      newHash = await this.users.hash(body.password);
    }
    const joined = await this.join(tokenHash, ip, existing ? { userId: existing.id } : { name: body.name!.trim(), passwordHash: newHash! });
    if (isDomainError(joined)) return joined;
    const user = await repo.userById(this.db, joined.userId);
    return this.users.begin(user!, ip, joined.companyId);
  }

  /** Uses the invitation of `tokenHash` (under lock, once) for an existing user or a new one it creates, and makes the membership. */
  async join(tokenHash: string, ip: string, who: { userId: string } | { name: string; passwordHash: string }): Promise<Outcome<{ userId: string; companyId: string }>> {
    return transact(this.db, async (trx) => {
      const invitation = await repo.liveInvitation(trx, tokenHash, this.deps.clock.now(), true);
      if (!invitation) return new DomainError('NOT_FOUND', ERRORS.NOT_FOUND.invitation);
      const now = this.deps.clock.now();
      let userId: string;
      if ('userId' in who) userId = who.userId;
      else {
        userId = this.deps.newId('usr');
        await repo.insertUser(trx, { id: userId, email: invitation.email, name: who.name, passwordHash: who.passwordHash, at: now });
      }
      await repo.useInvitation(trx, tokenHash, now);
      if (await repo.insertMembership(trx, { userId, companyId: invitation.companyId, role: invitation.role, at: now })) {
        await this.deps.audit.record(trx, { companyId: invitation.companyId, userId, email: invitation.email, action: 'member.joined', ip, details: { role: invitation.role } });
      }
      return { userId, companyId: invitation.companyId };
    }).catch((err: unknown) => {
      // Two new users accepting invitations of one e-mail at once: the second finds the e-mail taken.
      if ((err as { code?: string }).code === '23505') return new DomainError('NOT_FOUND', ERRORS.NOT_FOUND.invitation);
      throw err;
    });
  }

  async team(companyId: string): Promise<{ members: Member[]; requireTotp: boolean }> {
    const company = await repo.company(this.db, companyId);
    return { members: await repo.members(this.db, companyId), requireTotp: company?.requireTotp ?? false };
  }

  /** The members of a company, for the operator (404 for an unknown company). */
  async list(companyId: string): Promise<Outcome<Member[]>> {
    const company = await repo.company(this.db, companyId);
    if (!company) return new DomainError('NOT_FOUND', ERRORS.NOT_FOUND.company({ id: companyId }));
    return repo.members(this.db, companyId);
  }

  async setRole(companyId: string, userId: string, role: Role, by: Doer): Promise<Outcome<Member>> {
    return transact(this.db, async (trx) => {
      const current = await repo.roleIn(trx, userId, companyId);
      if (!current) return new DomainError('NOT_FOUND', ERRORS.NOT_FOUND.member);
      if (current === 'admin' && role !== 'admin' && (await repo.lockedAdminCount(trx, companyId)) <= 1) return new DomainError('LAST_ADMIN', ERRORS.LAST_ADMIN.lastAdmin);
      if (current !== role) {
        await repo.setRole(trx, userId, companyId, role);
        await this.deps.audit.record(trx, { companyId, ...by, action: 'member.role_changed', target: userId, details: { from: current, to: role } });
      }
      return (await repo.members(trx, companyId)).find((m) => m.userId === userId)!;
    });
  }

  /** The API keys and webhooks a member made in the company, which removing them revokes or keeps. */
  async credentialsOf(companyId: string, userId: string): Promise<Outcome<MemberCredentialList>> {
    if (!(await repo.roleIn(this.db, userId, companyId))) return new DomainError('NOT_FOUND', ERRORS.NOT_FOUND.member);
    return (await this.deps.credentials?.of(this.db, companyId, userId)) ?? NO_CREDENTIALS;
  }

  /**
   * Removes a member; `credentials` says what becomes of the API keys and
   * webhooks they made: revoked (each audited) or kept, in the same
   * transaction. The answer lists them and says which it did.
   */
  async remove(companyId: string, userId: string, by: Doer, credentials: 'revoke' | 'keep' = 'keep'): Promise<Outcome<Removal>> {
    return transact(this.db, async (trx) => {
      const current = await repo.roleIn(trx, userId, companyId);
      if (!current) return new DomainError('NOT_FOUND', ERRORS.NOT_FOUND.member);
      if (current === 'admin' && (await repo.lockedAdminCount(trx, companyId)) <= 1) return new DomainError('LAST_ADMIN', ERRORS.LAST_ADMIN.lastAdmin);
      await repo.deleteMembership(trx, userId, companyId);
      const port = this.deps.credentials;
      const revoke = credentials === 'revoke';
      const list = (port ? await (revoke ? port.revoke(trx, companyId, userId) : port.of(trx, companyId, userId)) : undefined) ?? NO_CREDENTIALS;
      const done = revoke ? 'revoked' : 'kept';
      await this.deps.audit.record(trx, {
        companyId,
        ...by,
        action: 'member.removed',
        target: userId,
        details: { role: current, credentials: done, keys: list.keys.length, webhooks: list.webhooks.length },
      });
      if (revoke) {
        for (const key of list.keys) await this.deps.audit.record(trx, { companyId, ...by, action: 'api_key.revoked', target: key.id, details: { member: userId } });
        for (const hook of list.webhooks) await this.deps.audit.record(trx, { companyId, ...by, action: 'webhook.deleted', target: hook.id, details: { member: userId } });
      }
      return { userId, credentials: done, ...list };
    });
  }

  /** The operator's way in: a member named by e-mail (404 when the company or the membership is not there). */
  async memberByEmail(companyId: string, rawEmail: string): Promise<Outcome<string>> {
    const company = await repo.company(this.db, companyId);
    if (!company) return new DomainError('NOT_FOUND', ERRORS.NOT_FOUND.company({ id: companyId }));
    const email = normalizeEmail(rawEmail);
    const user = await repo.userByEmail(this.db, email);
    if (!user || !(await repo.roleIn(this.db, user.id, companyId))) return new DomainError('NOT_FOUND', ERRORS.NOT_FOUND.memberByEmail({ email, company: companyId }));
    return user.id;
  }

  async setRequireTotp(companyId: string, requireTotp: boolean, by: Doer): Promise<{ requireTotp: boolean }> {
    await this.db.transaction().execute(async (trx) => {
      await repo.setRequireTotp(trx, companyId, requireTotp);
      await this.deps.audit.record(trx, { companyId, ...by, action: 'company.totp_required', details: { requireTotp } });
    });
    return { requireTotp };
  }

  /**
   * The first admin of a company that has none (the sandbox's demo admin): no
   * invitation, a password given, hashed with `params` when the caller drew
   * the password at random (GENERATED_PASSWORD_SCRYPT), else at the service's.
   */
  async createAdmin(companyId: string, rawEmail: string, name: string, password: string, params?: ScryptParams): Promise<void> {
    const email = normalizeEmail(rawEmail);
    const hash = params ? await hashPassword(password, params) : await this.users.hash(password);
    const now = this.deps.clock.now();
    await this.db.transaction().execute(async (trx) => {
      let user = await repo.userByEmail(trx, email);
      if (!user) {
        await repo.insertUser(trx, { id: this.deps.newId('usr'), email, name, passwordHash: hash, at: now });
        user = (await repo.userByEmail(trx, email))!;
      } else {
        await repo.setPasswordHash(trx, user.id, hash);
      }
      await repo.insertMembership(trx, { userId: user.id, companyId, role: 'admin', at: now });
    });
  }

  /** Whether the company has any member (the demo admin is created once). */
  async hasMembers(companyId: string): Promise<boolean> {
    return (await repo.members(this.db, companyId)).length > 0;
  }
}

function checkNewUser(body: Acceptance, email: string): DomainError | undefined {
  const details: ErrorDetail[] = [];
  const name = body.name?.trim() ?? '';
  if (!name) details.push({ field: 'name', message: PROBLEMS.required });
  else if (name.length > MAX_NAME_LENGTH) details.push({ field: 'name', message: PROBLEMS.maxLength({ limit: MAX_NAME_LENGTH }) });
  const password = checkPassword(body.password, 'password', email);
  if (password?.details) details.push(...password.details);
  if (body.passwordConfirmation !== body.password) details.push({ field: 'passwordConfirmation', message: PROBLEMS.passwordConfirmation });
  return details.length > 0 ? validationFailure(details) : undefined;
}
