/**
 * The dashboard's people: sign-in (password, then the code when two-step
 * verification is on) with its per-e-mail lockout, the signed-in person's
 * own account (password, TOTP), and, through `team`, invitations and the
 * members of a company.
 *
 * A wrong e-mail and a wrong password get one message and cost one scrypt
 * hash each (an unknown e-mail is checked against a dummy hash), so neither
 * the answer nor its time tells which e-mails exist. Failures are counted per
 * e-mail in the database (every process shares them) whether the e-mail has
 * a user or not; 10 within 15 minutes lock it 15 minutes.
 */
import { randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import { DomainError, validationError, type Outcome } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import type { SignedIn, SignInSteps, UserDeps } from './deps.js';
import { hashPassword, OWASP_SCRYPT, verifyPassword, type ScryptParams } from './password.js';
import * as repo from './repo.js';
import { SessionStore, type LiveSession, type Me } from './sessions.js';
import {
  checkPassword,
  LOCKOUT_FAILURES,
  LOCKOUT_MS,
  LOCKOUT_WINDOW_MS,
  newRecoveryCode,
  normalizeEmail,
  normalizeRecoveryCode,
  RECOVERY_CODES,
  sha256,
  TOTP_ISSUER,
} from './rules.js';
import { TeamService } from './team.js';
import { matchingStep, newTotpSecret, otpauthUri } from './totp.js';

export class UserService implements SignInSteps {
  readonly sessions: SessionStore;
  readonly team: TeamService;
  readonly passwordParams: ScryptParams;
  private dummy: string | undefined;

  constructor(private readonly deps: UserDeps) {
    this.passwordParams = deps.passwordParams ?? OWASP_SCRYPT;
    this.sessions = new SessionStore(deps.db, deps.clock, deps.env);
    this.team = new TeamService(deps, this);
  }

  hash(password: string): Promise<string> {
    return hashPassword(password, this.passwordParams);
  }

  /**
   * A stored hash no password matches (random salt and key) with today's
   * parameters: verifying against it costs what a real one does, so an unknown
   * e-mail takes the time of a known one, and making it costs nothing.
   */
  private dummyHash(): string {
    const { logN, r, p } = this.passwordParams;
    this.dummy ??= `scrypt$${logN}$${r}$${p}$${randomBytes(16).toString('base64url')}$${randomBytes(32).toString('base64url')}`;
    return this.dummy;
  }

  /** The 429 of a locked e-mail, with the minutes left. */
  private locked(until: Date): DomainError {
    const seconds = Math.max(1, Math.ceil((until.getTime() - this.deps.clock.now().getTime()) / 1000));
    return new DomainError('RATE_LIMITED', ERRORS.RATE_LIMITED.signInLocked({ minutes: Math.ceil(seconds / 60) }), undefined, seconds);
  }

  /** Counts a failed sign-in of `email` (locking it at the 10th) and audits it in the user's companies; an unknown e-mail is not audited. */
  async failed(email: string, user: repo.UserRow | undefined, ip: string): Promise<void> {
    const now = this.deps.clock.now();
    await repo.recordFailure(this.deps.db, email, now, new Date(now.getTime() - LOCKOUT_WINDOW_MS), LOCKOUT_FAILURES, new Date(now.getTime() + LOCKOUT_MS));
    if (!user) return;
    for (const m of await repo.membershipsOf(this.deps.db, user.id)) {
      await this.deps.audit.record(this.deps.db, { companyId: m.companyId, userId: user.id, email: user.email, action: 'session.sign_in_failed', ip });
    }
  }

  /** The lockout's refusal when `email` is locked now. */
  async lockout(email: string): Promise<DomainError | undefined> {
    const until = await repo.lockedUntil(this.deps.db, email, this.deps.clock.now());
    return until ? this.locked(until) : undefined;
  }

  async signIn(rawEmail: string, password: string, ip: string): Promise<Outcome<SignedIn>> {
    const email = normalizeEmail(rawEmail);
    const locked = await this.lockout(email);
    if (locked) return locked;
    const user = await repo.userByEmail(this.deps.db, email);
    const right = await verifyPassword(password, user?.password_hash ?? this.dummyHash());
    if (!user || !right) {
      await this.failed(email, user, ip);
      return new DomainError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.signIn);
    }
    return this.begin(user, ip);
  }

  /**
   * Opens the session of a user whose password was right: half-open when the
   * user has two-step verification, else signed in to their first company.
   * A user who belongs to no company has nothing to sign in to.
   */
  async begin(user: repo.UserRow, ip: string, companyId?: string): Promise<Outcome<SignedIn>> {
    const memberships = await repo.membershipsOf(this.deps.db, user.id);
    const chosen = memberships.find((m) => m.companyId === companyId) ?? memberships[0];
    if (!chosen) return new DomainError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.signIn);
    await repo.clearFailures(this.deps.db, user.email);
    if (user.totp_enabled_at) return { token: await this.sessions.open(this.deps.db, user.id, chosen.companyId, 'totp'), stage: 'totp' };
    return this.signedIn(user.id, chosen.companyId, ip, 'password');
  }

  private async signedIn(userId: string, companyId: string, ip: string, method: string): Promise<Outcome<SignedIn>> {
    const token = await this.sessions.open(this.deps.db, userId, companyId, 'active');
    const live = await this.sessions.live(token);
    if (!live) return new DomainError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.noSession);
    await this.deps.audit.record(this.deps.db, { companyId, userId, email: live.email, action: 'session.signed_in', ip, details: { method } });
    return { token, stage: 'active', me: await this.sessions.me(live) };
  }

  /** The second step: a TOTP code (or a recovery code, once) for the half-open session of `token`; the session gets a new id. */
  async signInCode(token: string | undefined, code: string, ip: string): Promise<Outcome<SignedIn>> {
    const half = await this.sessions.live(token, 'totp');
    if (!half) return new DomainError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.noSession);
    const locked = await this.lockout(half.email);
    if (locked) {
      await this.sessions.end(half.idHash);
      return locked;
    }
    const user = await repo.userById(this.deps.db, half.userId);
    const method = user ? await this.spendCode(user, code) : undefined;
    if (!user || !method) {
      await this.failed(half.email, user, ip);
      return new DomainError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.wrongCode);
    }
    await this.sessions.end(half.idHash);
    await repo.clearFailures(this.deps.db, user.email);
    return this.signedIn(user.id, half.companyId, ip, method);
  }

  /** Accepts `code` once: the authenticator's code of a step not used yet, or an unused recovery code. */
  private async spendCode(user: repo.UserRow, code: string): Promise<'totp' | 'recovery_code' | undefined> {
    if (!user.totp_secret_sealed || !user.totp_enabled_at) return undefined;
    const typed = code.trim();
    if (/^\d{6}$/.test(typed)) {
      const step = matchingStep(this.deps.sealer.open(user.totp_secret_sealed), typed, this.deps.clock.now(), user.totp_last_step);
      return step !== undefined && (await repo.useTotpStep(this.deps.db, user.id, step)) ? 'totp' : undefined;
    }
    const used = await repo.useRecoveryCode(this.deps.db, user.id, sha256(normalizeRecoveryCode(typed)), this.deps.clock.now());
    return used ? 'recovery_code' : undefined;
  }

  async signOut(live: LiveSession, ip: string): Promise<void> {
    await this.sessions.end(live.idHash);
    await this.deps.audit.record(this.deps.db, { companyId: live.companyId, userId: live.userId, email: live.email, action: 'session.signed_out', ip });
  }

  /** Moves the session to another of the user's companies; 404 when not a member there. */
  async switchCompany(live: LiveSession, companyId: string): Promise<Outcome<Me>> {
    const role = await repo.roleIn(this.deps.db, live.userId, companyId);
    if (!role) return new DomainError('NOT_FOUND', ERRORS.NOT_FOUND.membership);
    await repo.setSessionCompany(this.deps.db, live.idHash, companyId);
    const company = await repo.company(this.deps.db, companyId);
    return this.sessions.me({ ...live, companyId, companyName: company!.name, requireTotp: company!.requireTotp, role });
  }

  // ---- the signed-in person's account --------------------------------------

  /** A new password; every other session of the user ends (a stolen one included). */
  async changePassword(live: LiveSession, current: string, next: string, ip: string): Promise<Outcome<void>> {
    const invalid = checkPassword(next, 'newPassword');
    if (invalid) return invalid;
    const user = await repo.userById(this.deps.db, live.userId);
    if (!user || !(await verifyPassword(current, user.password_hash))) return new DomainError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.wrongPassword);
    const hash = await this.hash(next);
    await this.deps.db.transaction().execute(async (trx) => {
      await repo.setPasswordHash(trx, user.id, hash);
      await repo.deleteUserSessions(trx, user.id, live.idHash);
      await this.deps.audit.record(trx, { companyId: live.companyId, userId: user.id, email: user.email, action: 'password.changed', ip });
    });
  }

  /** Starts an enrolment: a new secret, its otpauth:// URI and the URI's QR code. Two-step verification stays off until confirmed. */
  async enrollTotp(live: LiveSession): Promise<Outcome<{ secret: string; uri: string; qrCode: string }>> {
    if (live.totpEnabled) return validationError('totp', PROBLEMS.totpAlreadyOn);
    const secret = newTotpSecret();
    await repo.setPendingTotp(this.deps.db, live.userId, this.deps.sealer.seal(secret));
    const uri = otpauthUri(TOTP_ISSUER, live.email, secret);
    return { secret, uri, qrCode: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 240 }) };
  }

  /** Turns two-step verification on with the app's first code; answers the 10 recovery codes, shown this once. */
  async confirmTotp(live: LiveSession, code: string, ip: string): Promise<Outcome<{ recoveryCodes: string[] }>> {
    const user = await repo.userById(this.deps.db, live.userId);
    if (!user?.totp_secret_sealed) return validationError('code', PROBLEMS.noTotpEnrolment);
    if (user.totp_enabled_at) return validationError('code', PROBLEMS.totpAlreadyOn);
    const step = matchingStep(this.deps.sealer.open(user.totp_secret_sealed), code.trim(), this.deps.clock.now(), null);
    if (step === undefined) return validationError('code', PROBLEMS.totpCode);
    const recoveryCodes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await this.deps.db.transaction().execute(async (trx) => {
      await repo.enableTotp(trx, user.id, this.deps.clock.now(), step);
      await repo.replaceRecoveryCodes(trx, user.id, recoveryCodes.map((c) => sha256(normalizeRecoveryCode(c))));
      await this.deps.audit.record(trx, { companyId: live.companyId, userId: user.id, email: user.email, action: 'totp.enabled', ip });
    });
    return { recoveryCodes };
  }

  /** Turns two-step verification off with the password; refused while the company requires it. */
  async disableTotp(live: LiveSession, password: string, ip: string): Promise<Outcome<void>> {
    if (live.requireTotp) return new DomainError('FORBIDDEN', ERRORS.FORBIDDEN.totpRequired);
    const user = await repo.userById(this.deps.db, live.userId);
    if (!user || !(await verifyPassword(password, user.password_hash))) return new DomainError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.wrongPassword);
    await this.deps.db.transaction().execute(async (trx) => {
      await repo.disableTotp(trx, user.id);
      await this.deps.audit.record(trx, { companyId: live.companyId, userId: user.id, email: user.email, action: 'totp.disabled', ip });
    });
  }

  /** One round of the worker's clean-up of dead sessions, old failures and lockouts, long-expired invitations. */
  async purge(): Promise<number> {
    const now = this.deps.clock.now();
    return repo.purgeDead(this.deps.db, now, new Date(now.getTime() - LOCKOUT_WINDOW_MS), new Date(now.getTime() - 7 * 86_400_000));
  }
}
