/**
 * The dashboard's session guard. `guard(permission)` is the preHandler of a
 * dashboard data route: 401 without a live session, 403 when the request
 * changes something without the session's CSRF token and the dashboard's
 * Origin, 403 while the company requires two-step verification the user has
 * not set up, 403 when the role lacks the permission; then `request.actor`.
 * `signedIn` is the same without the permission and the set-up check (the
 * session's and the account's own routes); `fromDashboard` checks only the
 * Origin (sign-in and invitations, which have no session yet).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { AppError } from '../../http/errors.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import { may, type Actor, type Permission } from './roles.js';
import { totpSetupRequired, type LiveSession } from './sessions.js';
import type { UserService } from './service.js';

/**
 * The session guard: `guard(permission)` is the preHandler of a dashboard
 * route. It answers 401 without a live session, 403 without the permission
 * (or without the CSRF token and the dashboard's Origin on a change), and
 * sets `request.actor`. Route modules take it as a dependency.
 */
export type DashboardGuard = (permission: Permission) => preHandlerAsyncHookHandler;

declare module 'fastify' {
  interface FastifyRequest {
    actor?: Actor;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The dashboard session of a request the guard let through. */
    dashboardSession?: LiveSession;
  }
}

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Where the dashboard's JSON API lives: the identity routes (routes.ts) and the data routes (modules/dashboard). */
export const DASHBOARD_API = '/dashboard/api';

export const CSRF_HEADER = 'x-csrf-token';

/** The session cookie's name: over HTTPS the `__Host-` prefix (Secure, no Domain, Path=/) binds it to this origin. */
export const sessionCookieName = (publicApiUrl: string): string => (publicApiUrl.startsWith('https:') ? '__Host-svc_session' : 'svc_session');

/** The value of cookie `name` in the request's Cookie header. */
export function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header || header.length > 8192) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export interface DashboardGuards {
  guard: DashboardGuard;
  signedIn: preHandlerAsyncHookHandler;
  fromDashboard: preHandlerAsyncHookHandler;
  cookieName: string;
}

/**
 * Counts a signed-in request against its session's allowance
 * (DASHBOARD_REQUESTS_PER_SESSION_PER_MINUTE, http/rate-limit.ts's counter:
 * in Redis when REDIS_URL is set, so every process shares it); answers the
 * 429 once the session is past it.
 */
export type SessionLimit = (request: FastifyRequest) => Promise<AppError | undefined>;

export function dashboardGuards(users: UserService, publicApiUrl: string, perSession?: SessionLimit): DashboardGuards {
  const origin = new URL(publicApiUrl).origin;
  const cookieName = sessionCookieName(publicApiUrl);

  const checkOrigin = (request: FastifyRequest) => {
    if (request.headers.origin !== origin) {
      throw new AppError('FORBIDDEN', ERRORS.FORBIDDEN.notFromTheDashboard, [{ field: 'Origin', message: PROBLEMS.mustBe({ what: origin }) }]);
    }
  };

  const signedIn = async (request: FastifyRequest): Promise<LiveSession> => {
    const live = await users.sessions.live(cookieValue(request, cookieName));
    if (!live) throw new AppError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.noSession);
    // Counted per session (the limit's key), before anything the request asks: one page in a loop, or a script with a stolen cookie, cannot take the service's capacity.
    request.dashboardSession = live;
    const refusal = await perSession?.(request);
    if (refusal) throw refusal;
    if (CHANGES.has(request.method)) {
      checkOrigin(request);
      const token = request.headers[CSRF_HEADER];
      if (typeof token !== 'string' || !sameText(token, live.csrfToken)) {
        throw new AppError('FORBIDDEN', ERRORS.FORBIDDEN.notFromTheDashboard, [{ field: 'X-CSRF-Token', message: PROBLEMS.dashboardToken }]);
      }
    }
    request.dashboardSession = live;
    request.actor = { userId: live.userId, email: live.email, name: live.name, companyId: live.companyId, role: live.role, sessionId: live.idHash };
    return live;
  };

  return {
    cookieName,
    signedIn: async (request) => {
      await signedIn(request);
    },
    fromDashboard: async (request) => checkOrigin(request),
    guard: (permission) => async (request) => {
      const live = await signedIn(request);
      if (totpSetupRequired(live)) throw new AppError('FORBIDDEN', ERRORS.FORBIDDEN.totpSetupRequired);
      if (!may(live.role, permission)) throw new AppError('FORBIDDEN', ERRORS.FORBIDDEN.role);
    },
  };
}

/** The guard alone, for route modules that take a `DashboardGuard` (the dashboard's data routes). */
export const dashboardGuard = (users: UserService, publicApiUrl: string): DashboardGuard => dashboardGuards(users, publicApiUrl).guard;
