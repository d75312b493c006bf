/**
 * Dashboard sessions. The browser holds an opaque random id (32 bytes); the
 * database holds its SHA-256, the user, the selected company, the CSRF token
 * and the stage ('totp': password given, code awaited; 'active'). Every
 * request reads the session with the user's membership in one query, so a
 * sign-out, a password change (which ends the other sessions), a removal or
 * a role change is seen by the next request on every process.
 */
import type { Environment } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import * as repo from './repo.js';
import { permissionsOf, type Permission, type Role } from './roles.js';
import { opaqueToken, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, SESSION_TOUCH_MS, sha256, TOTP_STAGE_MS } from './rules.js';

/** A signed-in person's session as a request sees it. */
export interface LiveSession {
  /** SHA-256 of the cookie's id: the session's key, never the id itself. */
  idHash: string;
  userId: string;
  email: string;
  name: string;
  totpEnabled: boolean;
  companyId: string;
  companyName: string;
  role: Role;
  requireTotp: boolean;
  csrfToken: string;
}

export interface Me {
  stage: 'signed-in';
  user: { id: string; email: string; name: string; totpEnabled: boolean };
  company: { id: string; name: string };
  role: Role;
  permissions: readonly Permission[];
  companies: { id: string; name: string; role: Role }[];
  environment: Environment;
  csrfToken: string;
  totpSetupRequired: boolean;
}

/** A half-open session (password right, code awaited), as the code step sees it. */
export interface HalfOpen {
  idHash: string;
  userId: string;
  email: string;
  companyId: string;
  /** The invitation the code accepts (its token's hash): its membership is made only then. */
  invitationHash: string | null;
}

export const totpSetupRequired = (live: LiveSession): boolean => live.requireTotp && !live.totpEnabled;

export class SessionStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly env: Environment,
  ) {}

  /** Opens a session (a half-open one may carry the invitation its code accepts); answers the id for the cookie (shown once, stored hashed). */
  async open(ex: Db, userId: string, companyId: string, stage: 'totp' | 'active', invitationHash: string | null = null): Promise<string> {
    const token = opaqueToken();
    const now = this.clock.now();
    const lifetime = stage === 'totp' ? TOTP_STAGE_MS : SESSION_ABSOLUTE_MS;
    await repo.insertSession(ex, {
      id_hash: sha256(token),
      user_id: userId,
      company_id: companyId,
      csrf_token: opaqueToken(),
      stage,
      created_at: now,
      last_seen_at: now,
      expires_at: new Date(now.getTime() + lifetime),
      invitation_hash: invitationHash,
    });
    return token;
  }

  /** The session of `token` with its user and company if it is in `stage` and has not expired (an expired one is deleted). */
  private async unexpired(token: string | undefined, stage: 'totp' | 'active'): Promise<(repo.SessionMember & { idHash: string }) | undefined> {
    if (!token || token.length > 100) return undefined;
    const idHash = sha256(token);
    const found = await repo.sessionWithMember(this.db, idHash);
    if (!found || found.session.stage !== stage) return undefined;
    const now = this.clock.now().getTime();
    const lastSeen = new Date(found.session.last_seen_at).getTime();
    if (now >= new Date(found.session.expires_at).getTime() || now - lastSeen >= SESSION_IDLE_MS) {
      await repo.deleteSession(this.db, idHash);
      return undefined;
    }
    return { ...found, idHash };
  }

  /** The half-open session of `token` if it lives; its user need not be a member yet when it accepts an invitation. */
  async halfOpen(token: string | undefined): Promise<HalfOpen | undefined> {
    const found = await this.unexpired(token, 'totp');
    if (!found || (!found.role && !found.session.invitation_hash)) return undefined;
    return { idHash: found.idHash, userId: found.session.user_id, email: found.email, companyId: found.session.company_id, invitationHash: found.session.invitation_hash };
  }

  /** The session of `token` if it lives (not expired, not idle past 30 minutes, active, still a member); refreshes its idle time. */
  async live(token: string | undefined): Promise<LiveSession | undefined> {
    const found = await this.unexpired(token, 'active');
    if (!found?.role) return undefined;
    const { idHash } = found;
    const now = this.clock.now().getTime();
    const lastSeen = new Date(found.session.last_seen_at).getTime();
    if (now - lastSeen >= SESSION_TOUCH_MS) await repo.touchSession(this.db, idHash, new Date(now));
    return {
      idHash,
      userId: found.session.user_id,
      email: found.email,
      name: found.name,
      totpEnabled: found.totpEnabled,
      companyId: found.session.company_id,
      companyName: found.companyName,
      role: found.role,
      requireTotp: found.requireTotp,
      csrfToken: found.session.csrf_token,
    };
  }

  async end(idHash: string): Promise<void> {
    await repo.deleteSession(this.db, idHash);
  }

  async me(live: LiveSession): Promise<Me> {
    const memberships = await repo.membershipsOf(this.db, live.userId);
    return {
      stage: 'signed-in',
      user: { id: live.userId, email: live.email, name: live.name, totpEnabled: live.totpEnabled },
      company: { id: live.companyId, name: live.companyName },
      role: live.role,
      permissions: permissionsOf(live.role),
      companies: memberships.map((m) => ({ id: m.companyId, name: m.companyName, role: m.role })),
      environment: this.env,
      csrfToken: live.csrfToken,
      totpSetupRequired: totpSetupRequired(live),
    };
  }
}
