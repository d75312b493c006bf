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
 * a user or not, each before its hash (attempts.ts); 10 wrong passwords
 * (sign-ins and re-checks inside a session) or 5 wrong codes within 15
 * minutes lock it 15 minutes, and only a whole sign-in (the code included)
 * clears them.
 */
import { randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import { DomainError, isDomainError, validationError, type Outcome } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import type { SignedIn, SignInSteps, UserDeps } from './deps.js';
import { Attempts } from './attempts.js';
import { hashPassword, OWASP_SCRYPT, paramsOf, verifyPassword, type ScryptParams } from './password.js';
import * as repo from './repo.js';
import { SessionStore, type LiveSession, type Me } from './sessions.js';
import {
  checkPassword,
  LOCKOUT_WINDOW_MS,
  newRecoveryCode,
  normalizeEmail,
  normalizeRecoveryCode,
  RECOVERY_CODES,
  sha256,
  TOTP_ISSUER,
} from './rules.js';
import { TeamService } from './team.js';
import { DeviceCookies } from './device-cookie.js';
import { matchingStep, newTotpSecret, otpauthUri } from './totp.js';

export class UserService implements SignInSteps {
  readonly sessions: SessionStore;
  readonly team: TeamService;
  readonly passwordParams: ScryptParams;
  readonly devices: DeviceCookies;
  private readonly attempts: Attempts;
  private dummy: string | undefined;

  constructor(private readonly deps: UserDeps) {
    this.passwordParams = deps.passwordParams ?? OWASP_SCRYPT;
    this.sessions = new SessionStore(deps.db, deps.clock, deps.env);
    this.attempts = new Attempts(deps.db, deps.clock);
    this.devices = new DeviceCookies(deps.internalKey ?? randomBytes(32));
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

  /**
   * Audits a failed sign-in or re-check once: in `companyId` (a re-check's
   * session's company, a code step's) or else the user's first company by
   * name, the one a sign-in opens; an unknown e-mail, or a user of no
   * company, is not audited.
   */
  private async audited(user: repo.UserRow | undefined, ip: string, companyId?: string): Promise<void> {
    if (!user) return;
    const company = companyId ?? (await repo.membershipsOf(this.deps.db, user.id))[0]?.companyId;
    if (company) await this.deps.audit.record(this.deps.db, { companyId: company, userId: user.id, email: user.email, action: 'session.sign_in_failed', ip });
  }

  /**
   * Checks `password` as a sign-in does: counted as a failure before the hash
   * (the lockout's refusal when locked or past the limit), taken back when
   * right, audited when wrong. The caller holds the e-mail's one hash in
   * flight (oneAtATime). `user` undefined: an unknown e-mail, checked against
   * the dummy hash. `companyId`: a re-check inside a session of that company.
   * `knownDevice`: the browser holds the e-mail's device cookie, so the hash
   * waits in the gate's device lane (device-cookie.ts).
   */
  private async checked(
    email: string,
    user: repo.UserRow | undefined,
    password: string,
    ip: string,
    companyId?: string,
    knownDevice = false,
  ): Promise<Outcome<repo.UserRow>> {
    const reserved = await this.attempts.reserve(email, 'password');
    if (isDomainError(reserved)) return reserved;
    const right = await verifyPassword(password, user?.password_hash ?? this.dummyHash(), knownDevice ? 'device' : reserved.lane);
    if (!user || !right) {
      await this.attempts.wrong(reserved);
      await this.audited(user, ip, companyId);
      return new DomainError('UNAUTHORIZED', companyId ? ERRORS.UNAUTHORIZED.wrongPassword : ERRORS.UNAUTHORIZED.signIn);
    }
    await this.attempts.right(reserved);
    return user;
  }

  /** The password of an existing user checked as a sign-in checks it, for an invitation's acceptance; answers the user when right. */
  checkPassword(user: repo.UserRow, password: string, ip: string): Promise<Outcome<repo.UserRow>> {
    return this.attempts.oneAtATime(user.email, async () => {
      const checked = await this.checked(user.email, user, password, ip);
      // The page names the e-mail: a wrong password is only that.
      if (isDomainError(checked)) return checked.code === 'UNAUTHORIZED' ? new DomainError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.wrongPassword) : checked;
      await this.rehash(checked, password);
      return checked;
    });
  }

  /** A stored hash made with other parameters than the service's (the demo admin's N = 2^10) is made again with them, so no hash is told apart by its time. */
  private async rehash(user: repo.UserRow, password: string): Promise<void> {
    const { logN, r, p } = paramsOf(user.password_hash) ?? {};
    const current = this.passwordParams;
    if (logN === current.logN && r === current.r && p === current.p) return;
    await repo.setPasswordHash(this.deps.db, user.id, await this.hash(password));
  }

  /** `device`: the value of the browser's device cookie, if it sent one (device-cookie.ts). */
  async signIn(rawEmail: string, password: string, ip: string, device?: string): Promise<Outcome<SignedIn>> {
    const email = normalizeEmail(rawEmail);
    const knownDevice = this.devices.recognizes(email, device);
    return this.attempts.oneAtATime(email, async () => {
      const user = await this.checked(email, await repo.userByEmail(this.deps.db, email), password, ip, undefined, knownDevice);
      if (isDomainError(user)) return user;
      await this.rehash(user, password);
      return this.begin(user, ip);
    });
  }

  /**
   * Opens the session of a user whose password was right: half-open when the
   * user has two-step verification, else signed in to their first company.
   * A user who belongs to no company has nothing to sign in to. With
   * `invitationHash` (an invitation accepted with the password of a user who
   * has two-step verification) the half-open session is in the invitation's
   * company, whose membership the code step makes.
   */
  async begin(user: repo.UserRow, ip: string, companyId?: string, invitationHash?: string): Promise<Outcome<SignedIn>> {
    if (user.totp_enabled_at && invitationHash && companyId) {
      return { token: await this.sessions.open(this.deps.db, user.id, companyId, 'totp', invitationHash), stage: 'totp' };
    }
    const memberships = await repo.membershipsOf(this.deps.db, user.id);
    const chosen = memberships.find((m) => m.companyId === companyId) ?? memberships[0];
    if (!chosen) return new DomainError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.signIn);
    // The e-mail's failures are forgotten only once the whole sign-in goes through: after the code, if there is one.
    if (user.totp_enabled_at) return { token: await this.sessions.open(this.deps.db, user.id, chosen.companyId, 'totp'), stage: 'totp' };
    await this.attempts.clear(user.email);
    return this.signedIn(user.id, chosen.companyId, ip, 'password');
  }

  private async signedIn(userId: string, companyId: string, ip: string, method: string): Promise<Outcome<SignedIn>> {
    const token = await this.sessions.open(this.deps.db, userId, companyId, 'active');
    const live = await this.sessions.live(token);
    if (!live) return new DomainError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.noSession);
    await this.deps.audit.record(this.deps.db, { companyId, userId, email: live.email, action: 'session.signed_in', ip, details: { method } });
    return { token, stage: 'active', me: await this.sessions.me(live) };
  }

  /**
   * The second step: a TOTP code (or a recovery code, once) for the half-open
   * session of `token`; the session gets a new id. Wrong codes count on their
   * own: the 5th within 15 minutes ends the half-open session and locks the
   * e-mail (429), so typing the password again does not buy more guesses.
   */
  async signInCode(token: string | undefined, code: string, ip: string): Promise<Outcome<SignedIn>> {
    const half = await this.sessions.halfOpen(token);
    if (!half) return new DomainError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.noSession);
    const reserved = await this.attempts.reserve(half.email, 'code');
    if (isDomainError(reserved)) {
      await this.sessions.end(half.idHash);
      return reserved;
    }
    const user = await repo.userById(this.deps.db, half.userId);
    const method = user ? await this.spendCode(user, code) : undefined;
    if (!user || !method) {
      const lockedUntil = await this.attempts.wrong(reserved);
      await this.audited(user, ip, half.invitationHash ? undefined : half.companyId);
      if (!lockedUntil) return new DomainError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.wrongCode);
      await this.sessions.end(half.idHash);
      return this.attempts.locked(lockedUntil);
    }
    await this.sessions.end(half.idHash);
    await this.attempts.clear(user.email);
    if (half.invitationHash) {
      const joined = await this.team.join(half.invitationHash, ip, { userId: user.id });
      if (isDomainError(joined)) return joined;
    }
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

  /**
   * A password re-check inside a session, as a sign-in checks it: one hash
   * in flight per user (so per session), the e-mail's lockout and failure
   * count, audited in the session's company; then `then` (which may hash
   * too) inside the same place in flight.
   */
  private recheck<T>(live: LiveSession, password: string, ip: string, then: (user: repo.UserRow) => Promise<Outcome<T>>): Promise<Outcome<T>> {
    return this.attempts.oneAtATime(live.email, async () => {
      const user = await repo.userById(this.deps.db, live.userId);
      const checked = await this.checked(live.email, user, password, ip, live.companyId);
      return isDomainError(checked) ? checked : then(checked);
    });
  }

  /** A new password (the current one re-checked); every other session of the user ends (a stolen one included). */
  async changePassword(live: LiveSession, current: string, next: string, ip: string): Promise<Outcome<void>> {
    const invalid = checkPassword(next, 'newPassword', live.email);
    if (invalid) return invalid;
    return this.recheck(live, current, ip, async (user) => {
      const hash = await this.hash(next);
      await this.deps.db.transaction().execute(async (trx) => {
        await repo.setPasswordHash(trx, user.id, hash);
        await repo.deleteUserSessions(trx, user.id, live.idHash);
        await this.deps.audit.record(trx, { companyId: live.companyId, userId: user.id, email: user.email, action: 'password.changed', ip });
      });
    });
  }

  /**
   * Starts an enrolment, the password re-entered: a new secret, its
   * otpauth:// URI and the URI's QR code. Two-step verification stays off
   * until confirmed.
   */
  async enrollTotp(live: LiveSession, password: string, ip: string): Promise<Outcome<{ secret: string; uri: string; qrCode: string }>> {
    if (live.totpEnabled) return validationError('totp', PROBLEMS.totpAlreadyOn);
    return this.recheck(live, password, ip, async () => {
      const secret = newTotpSecret();
      await repo.setPendingTotp(this.deps.db, live.userId, this.deps.sealer.seal(secret));
      const uri = otpauthUri(TOTP_ISSUER, live.email, secret);
      return { secret, uri, qrCode: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 240 }) };
    });
  }

  /** Turns two-step verification on with the app's first code; answers the 10 recovery codes, shown this once. The user's other sessions end. */
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
      await repo.deleteUserSessions(trx, user.id, live.idHash);
      await this.deps.audit.record(trx, { companyId: live.companyId, userId: user.id, email: user.email, action: 'totp.enabled', ip });
    });
    return { recoveryCodes };
  }

  /**
   * Turns two-step verification off with the password and a current code (or
   * a recovery code); refused while the company requires it. A wrong code
   * counts as a sign-in's does. The user's other sessions end.
   */
  async disableTotp(live: LiveSession, password: string, code: string, ip: string): Promise<Outcome<void>> {
    if (live.requireTotp) return new DomainError('FORBIDDEN', ERRORS.FORBIDDEN.totpRequired);
    return this.recheck(live, password, ip, async (user) => {
      const reserved = await this.attempts.reserve(user.email, 'code');
      if (isDomainError(reserved)) return reserved;
      if (!(await this.spendCode(user, code))) {
        const lockedUntil = await this.attempts.wrong(reserved);
        await this.audited(user, ip, live.companyId);
        return lockedUntil ? this.attempts.locked(lockedUntil) : new DomainError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.wrongCode);
      }
      await this.attempts.right(reserved);
      await this.deps.db.transaction().execute(async (trx) => {
        await repo.disableTotp(trx, user.id);
        await repo.deleteUserSessions(trx, user.id, live.idHash);
        await this.deps.audit.record(trx, { companyId: live.companyId, userId: user.id, email: user.email, action: 'totp.disabled', ip });
      });
    });
  }

  /** One round of the worker's clean-up of dead sessions, old failures and lockouts, long-expired invitations. */
  async purge(): Promise<number> {
    const now = this.deps.clock.now();
    return repo.purgeDead(this.deps.db, now, new Date(now.getTime() - LOCKOUT_WINDOW_MS), new Date(now.getTime() - 7 * 86_400_000));
  }
}
