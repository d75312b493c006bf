/**
 * The dashboard's session, invitation, account and team routes under
 * /dashboard/api (docs/dashboard.md, "Session and identity"). None has an
 * API-key scope (the global key auth passes them by) and all are hidden from
 * /openapi.json. Sign-in, its code step and accepting an invitation need the
 * dashboard's Origin and count against DASHBOARD_SIGNIN_PER_IP_PER_MINUTE, as
 * do the account's password re-checks (password change, two-step on and off).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { Config } from '../../config.js';
import { sendError } from '../../http/error-handler.js';
import { sendOutcome } from '../../http/respond.js';
import { perMinuteLimit } from '../../http/rate-limit.js';
import { isDomainError, type Outcome } from '../../lib/domain-error.js';
import { DEVICE_COOKIE_SECONDS, deviceCookieName } from './device-cookie.js';
import { cookieValue, DASHBOARD_API, type DashboardGuards } from './guard.js';
import { normalizeEmail } from './rules.js';
import {
  AcceptBody,
  CodeBody,
  CompanyBody,
  InvitationParams,
  InviteBody,
  MemberParams,
  PasswordBody,
  PasswordChangeBody,
  RoleBody,
  SettingsBody,
  RemovalBody,
  SignInBody,
  TokenBody,
  TotpOffBody,
} from './schemas.js';
import { doerOf, type SignedIn } from './deps.js';
import type { UserService } from './service.js';


export interface UserRouteDeps {
  users: UserService;
  guards: DashboardGuards;
  config: Config;
}

export function userRoutes(app: FastifyInstance, { users, guards, config }: UserRouteDeps): void {
  const { guard, signedIn, fromDashboard, cookieName } = guards;
  const secure = config.publicApiUrl.startsWith('https:');
  const perAddress = perMinuteLimit(app, 'dashboard-signin', config.dashboardSigninPerIpPerMinute, (request) => request.ip);
  const live = (request: FastifyRequest) => request.dashboardSession!;

  const setCookie = (reply: FastifyReply, value: string, clear = false) =>
    reply.header('Set-Cookie', `${cookieName}=${value}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}${clear ? '; Max-Age=0' : ''}`);

  const deviceCookie = deviceCookieName(secure);

  /**
   * A sign-in's answer: the cookie with the new session, and `Me` or the code
   * step. A whole sign-in also leaves the e-mail's device cookie, so this
   * browser's next sign-in goes ahead of floods (device-cookie.ts).
   */
  const signedInReply = (reply: FastifyReply, outcome: Outcome<SignedIn>) => {
    if (isDomainError(outcome)) return sendError(reply, outcome);
    setCookie(reply, outcome.token);
    if (outcome.stage === 'totp') return reply.send({ stage: 'totp' });
    const device = users.devices.issue(normalizeEmail(outcome.me.user.email));
    // Fastify adds a second Set-Cookie beside the session's.
    reply.header('Set-Cookie', `${deviceCookie}=${device}; Path=/; Max-Age=${DEVICE_COOKIE_SECONDS}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`);
    return reply.send(outcome.me);
  };

  // What the dashboard's API answers is one person's: never stored by a browser or a proxy.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith(`${DASHBOARD_API}/`)) reply.header('Cache-Control', 'no-store');
  });

  // ---- session ----------------------------------------------------------------

  app.post<{ Body: Static<typeof SignInBody> }>(
    `${DASHBOARD_API}/session`,
    { preHandler: [fromDashboard, perAddress], schema: { hide: true, body: SignInBody } },
    async (request, reply) =>
      signedInReply(reply, await users.signIn(request.body.email, request.body.password, request.ip, cookieValue(request, deviceCookie))),
  );

  app.post<{ Body: Static<typeof CodeBody> }>(
    `${DASHBOARD_API}/session/totp`,
    { preHandler: [fromDashboard, perAddress], schema: { hide: true, body: CodeBody } },
    async (request, reply) => signedInReply(reply, await users.signInCode(cookieValue(request, cookieName), request.body.code, request.ip)),
  );

  app.get(`${DASHBOARD_API}/session`, { preHandler: signedIn, schema: { hide: true } }, async (request) => users.sessions.me(live(request)));

  app.delete(`${DASHBOARD_API}/session`, { preHandler: signedIn, schema: { hide: true } }, async (request, reply) => {
    await users.signOut(live(request), request.ip);
    return setCookie(reply, '', true).code(204).send();
  });

  app.put<{ Body: Static<typeof CompanyBody> }>(
    `${DASHBOARD_API}/session/company`,
    { preHandler: signedIn, schema: { hide: true, body: CompanyBody } },
    async (request, reply) => sendOutcome(reply, await users.switchCompany(live(request), request.body.companyId)),
  );

  // ---- invitations ------------------------------------------------------------

  // The token in the body, never in the path or the query (proxy and access logs keep those).
  app.post<{ Body: Static<typeof TokenBody> }>(
    `${DASHBOARD_API}/invitations/lookup`,
    { preHandler: perAddress, schema: { hide: true, body: TokenBody } },
    async (request, reply) => sendOutcome(reply, await users.team.invitation(request.body.token)),
  );

  app.post<{ Body: Static<typeof AcceptBody> }>(
    `${DASHBOARD_API}/invitations/accept`,
    { preHandler: [fromDashboard, perAddress], schema: { hide: true, body: AcceptBody } },
    async (request, reply) => signedInReply(reply, await users.team.accept(request.body.token, request.body, request.ip)),
  );

  // ---- the signed-in person's account -----------------------------------------

  // The password re-checks count against the sign-in's per-address limit too (after the session: no session, no count).
  app.post<{ Body: Static<typeof PasswordChangeBody> }>(
    `${DASHBOARD_API}/account/password`,
    { preHandler: [signedIn, perAddress], schema: { hide: true, body: PasswordChangeBody } },
    async (request, reply) => sendOutcome(reply, await users.changePassword(live(request), request.body.currentPassword, request.body.newPassword, request.ip), 204),
  );

  app.post<{ Body: Static<typeof PasswordBody> }>(
    `${DASHBOARD_API}/account/totp`,
    { preHandler: [signedIn, perAddress], schema: { hide: true, body: PasswordBody } },
    async (request, reply) => sendOutcome(reply, await users.enrollTotp(live(request), request.body.password, request.ip)),
  );

  app.post<{ Body: Static<typeof CodeBody> }>(
    `${DASHBOARD_API}/account/totp/confirm`,
    { preHandler: signedIn, schema: { hide: true, body: CodeBody } },
    async (request, reply) => sendOutcome(reply, await users.confirmTotp(live(request), request.body.code, request.ip)),
  );

  app.delete<{ Body: Static<typeof TotpOffBody> }>(
    `${DASHBOARD_API}/account/totp`,
    { preHandler: [signedIn, perAddress], schema: { hide: true, body: TotpOffBody } },
    async (request, reply) => sendOutcome(reply, await users.disableTotp(live(request), request.body.password, request.body.code, request.ip), 204),
  );

  // ---- the team ---------------------------------------------------------------

  app.get(`${DASHBOARD_API}/team`, { preHandler: guard('team.read'), schema: { hide: true } }, async (request) => users.team.team(request.actor!.companyId));

  app.post<{ Body: Static<typeof InviteBody> }>(
    `${DASHBOARD_API}/team/invitations`,
    { preHandler: guard('team.write'), schema: { hide: true, body: InviteBody } },
    async (request, reply) => sendOutcome(reply, await users.team.invite(request.actor!.companyId, request.body.email, request.body.role, doerOf(live(request), request.ip)), 201),
  );

  app.get(`${DASHBOARD_API}/team/invitations`, { preHandler: guard('team.write'), schema: { hide: true } }, async (request) =>
    users.team.pendingInvitations(request.actor!.companyId),
  );

  app.delete<{ Params: Static<typeof InvitationParams> }>(
    `${DASHBOARD_API}/team/invitations/:id`,
    { preHandler: guard('team.write'), schema: { hide: true, params: InvitationParams } },
    async (request, reply) => sendOutcome(reply, await users.team.revokeInvitation(request.actor!.companyId, request.params.id, doerOf(live(request), request.ip))),
  );

  app.get<{ Params: Static<typeof MemberParams> }>(
    `${DASHBOARD_API}/team/members/:userId/credentials`,
    { preHandler: guard('team.write'), schema: { hide: true, params: MemberParams } },
    async (request, reply) => sendOutcome(reply, await users.team.credentialsOf(request.actor!.companyId, request.params.userId)),
  );

  app.put<{ Params: Static<typeof MemberParams>; Body: Static<typeof RoleBody> }>(
    `${DASHBOARD_API}/team/members/:userId`,
    { preHandler: guard('team.write'), schema: { hide: true, params: MemberParams, body: RoleBody } },
    async (request, reply) => sendOutcome(reply, await users.team.setRole(request.actor!.companyId, request.params.userId, request.body.role, doerOf(live(request), request.ip))),
  );

  // The answer says what became of the member's keys and webhooks (`credentials`: revoked or kept) and lists them.
  app.delete<{ Params: Static<typeof MemberParams>; Body: Static<typeof RemovalBody> }>(
    `${DASHBOARD_API}/team/members/:userId`,
    { preHandler: guard('team.write'), schema: { hide: true, params: MemberParams, body: RemovalBody } },
    async (request, reply) =>
      sendOutcome(reply, await users.team.remove(request.actor!.companyId, request.params.userId, doerOf(live(request), request.ip), request.body?.credentials ?? 'keep')),
  );

  app.put<{ Body: Static<typeof SettingsBody> }>(
    `${DASHBOARD_API}/team/settings`,
    { preHandler: guard('settings.write'), schema: { hide: true, body: SettingsBody } },
    async (request) => users.team.setRequireTotp(request.actor!.companyId, request.body.requireTotp, doerOf(live(request), request.ip)),
  );
}
