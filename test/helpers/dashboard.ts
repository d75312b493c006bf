/**
 * The dashboard's identity API as a browser uses it, over inject: a
 * `Browser` keeps its session cookie and CSRF token and sends the
 * dashboard's Origin, as the pages do; helpers invite and activate members.
 */
import assert from 'node:assert/strict';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { deviceCookieName } from '../../src/modules/users/device-cookie.js';
import { sessionCookieName, type Me, type Role } from '../../src/modules/users/index.js';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../src/modules/users/rules.js';
import { base32Decode, stepAt, totpCode } from '../../src/modules/users/totp.js';

const MINUTE = 60_000;
import { startTestApp, type TestApp, type TestAppOptions } from './app.js';
import type { Engine } from './db.js';
import { settled } from './outcome.js';

export const API = '/dashboard/api';
export const PASSWORD = 'correct horse battery';

export const originOf = (t: TestApp): string => new URL(t.deps.config.publicApiUrl).origin;

/** The session cookie a response set, if any. */
export function sessionCookie(t: TestApp, res: LightMyRequestResponse): string | undefined {
  return cookieSet(res, sessionCookieName(t.deps.config.publicApiUrl));
}

/** The value of cookie `name` a response set, if any. */
export function cookieSet(res: LightMyRequestResponse, name: string): string | undefined {
  const header = res.headers['set-cookie'];
  const line = (Array.isArray(header) ? header : header ? [header] : []).find((c) => c.startsWith(`${name}=`));
  const value = line?.slice(name.length + 1).split(';')[0];
  return value ? value : undefined;
}

export class Browser {
  cookie: string | undefined;
  /** The device cookie a whole sign-in left (src/modules/users/device-cookie.ts). */
  device: string | undefined;
  csrf: string | undefined;
  address = '127.0.0.1';

  constructor(readonly t: TestApp) {}

  /** A request as the pages make it: the cookie, and on a change the Origin and the CSRF token. */
  async send(method: InjectOptions['method'], path: string, payload?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const name = sessionCookieName(this.t.deps.config.publicApiUrl);
    const res = await this.t.app.inject({
      method,
      url: `${API}${path}`,
      remoteAddress: this.address,
      headers: {
        ...(this.cookie || this.device ? { cookie: [this.cookie && `${name}=${this.cookie}`, this.device && `${this.deviceCookieName()}=${this.device}`].filter(Boolean).join('; ') } : {}),
        ...(method === 'GET' ? {} : { origin: originOf(this.t) }),
        ...(this.csrf && method !== 'GET' ? { 'x-csrf-token': this.csrf } : {}),
        ...headers,
      },
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
    const cookie = sessionCookie(this.t, res);
    if (res.headers['set-cookie']) this.cookie = cookie;
    this.device = cookieSet(res, this.deviceCookieName()) ?? this.device;
    const body = res.headers['content-type']?.toString().startsWith('application/json') ? (res.json() as Partial<Me>) : undefined;
    if (body?.csrfToken) this.csrf = body.csrfToken;
    return res;
  }

  private deviceCookieName(): string {
    return deviceCookieName(this.t.deps.config.publicApiUrl.startsWith('https:'));
  }

  async signIn(email: string, password = PASSWORD): Promise<LightMyRequestResponse> {
    return this.send('POST', '/session', { email, password });
  }

  async me(): Promise<Me> {
    const res = await this.send('GET', '/session');
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  }
}

/** An invitation made by the operator; answers its token (the URL's fragment). */
export async function invite(t: TestApp, email: string, role: Role, companyId = t.companyId): Promise<string> {
  const { url } = settled(await t.services.users.team.invite(companyId, email, role, { email: 'svc', ip: 'local' }));
  const token = new URL(url).hash.slice(1);
  assert.ok(token.length >= 43, url);
  return token;
}

/** A new member, invited and activated: a browser signed in as them. */
export async function member(t: TestApp, email: string, role: Role, companyId = t.companyId): Promise<Browser> {
  const token = await invite(t, email, role, companyId);
  const browser = new Browser(t);
  const res = await browser.send('POST', '/invitations/accept', { token, name: email.split('@')[0], password: PASSWORD, passwordConfirmation: PASSWORD });
  assert.equal(res.statusCode, 200, res.body);
  return browser;
}

/** The code an authenticator app shows for `secret` at the app's clock, `offset` steps away. */
export const codeAt = (t: TestApp, secret: string, offset = 0): string => totpCode(base32Decode(secret), stepAt(t.clock.now()) + offset);

/** An audit line as the recorder was given it (AuditEntry), read back from the log. */
export interface RecordedAudit {
  companyId: string;
  userId?: string;
  email: string;
  action: string;
  target?: string;
  ip: string;
  details?: Record<string, unknown>;
}

export interface DashboardTestApp extends TestApp {
  /** Acts as a member of `companyId` (default: the test company) with this role, signed in through the session routes; undefined: signed out. */
  as(role: Role | undefined, companyId?: string): void;
  /** The user id of the member `as(role, companyId)` acts as (signed in on first use). */
  userIdOf(role: Role, companyId?: string): Promise<string>;
  /** A request under /dashboard/api as the current member's browser: its cookie, Origin and CSRF token. */
  dash(opts: InjectOptions & { url: string }): Promise<LightMyRequestResponse>;
  /** The audit log's lines made by the dashboard's data routes (every company), oldest first. */
  auditEntries(): Promise<RecordedAudit[]>;
}

/** The e-mail of the member of `role` in `companyId`: `admin@loja.example` in the test company. */
const memberEmail = (t: TestApp, role: Role, companyId: string): string =>
  companyId === t.companyId ? `${role}@loja.example` : `${role}+${companyId.toLowerCase()}@loja.example`;

/** Sign-in, CSRF and audit actions of the identity side, left out of auditEntries(): the data routes' tests count their own. */
interface Member {
  browser: Browser;
  email: string;
  signedInAt: number;
  lastUsedAt: number;
}

const IDENTITY_ACTIONS = ['session.signed_in', 'session.sign_in_failed', 'session.signed_out', 'member.invited', 'member.joined'];

/**
 * A test app whose dashboard requests are made by real members, one per role
 * and company, each invited and signed in on first use: the session guard,
 * the CSRF check and the roles table are the service's own.
 */
export async function startDashboardApp(engine: Engine, opts: TestAppOptions = {}): Promise<DashboardTestApp> {
  const t = await startTestApp(engine, opts);
  const members = new Map<string, Promise<Member>>();
  const memberOf = (role: Role, companyId: string): Promise<Member> => {
    const key = `${role} ${companyId}`;
    let found = members.get(key);
    if (!found) {
      const email = memberEmail(t, role, companyId);
      found = member(t, email, role, companyId).then((browser) => ({ browser, email, signedInAt: t.clock.now().getTime(), lastUsedAt: t.clock.now().getTime() }));
      members.set(key, found);
    }
    return found;
  };
  /** The member's browser, signed in again as a person would once the test's clock has outrun the session (idle 30 min, 12 h in all). */
  const browserOf = async (role: Role, companyId: string): Promise<Browser> => {
    const m = await memberOf(role, companyId);
    const now = t.clock.now().getTime();
    if (now - m.lastUsedAt >= SESSION_IDLE_MS - MINUTE || now - m.signedInAt >= SESSION_ABSOLUTE_MS - MINUTE) {
      assert.equal((await m.browser.signIn(m.email)).statusCode, 200);
      m.signedInAt = now;
    }
    m.lastUsedAt = now;
    return m.browser;
  };
  let current: { role: Role; companyId: string } | undefined = { role: 'admin', companyId: t.companyId };
  return {
    ...t,
    as: (role, companyId = t.companyId) => {
      current = role === undefined ? undefined : { role, companyId };
    },
    userIdOf: async (role, companyId = t.companyId) => (await (await browserOf(role, companyId)).me()).user.id,
    dash: async ({ url, method = 'GET', payload, headers, query }) => {
      const browser = current ? await browserOf(current.role, current.companyId) : new Browser(t);
      const search = query ? `?${new URLSearchParams(query as Record<string, string>)}` : '';
      return browser.send(method, `${url}${search}`, payload, (headers ?? {}) as Record<string, string>);
    },
    auditEntries: async () => {
      const rows = await t.db.db.selectFrom('audit_log').selectAll().where('action', 'not in', IDENTITY_ACTIONS).orderBy('at').orderBy('id').execute();
      return rows.map((r) => ({
        companyId: r.company_id,
        ...(r.user_id ? { userId: r.user_id } : {}),
        email: r.email,
        action: r.action,
        ...(r.target ? { target: r.target } : {}),
        ip: r.ip,
        ...(r.details ? { details: r.details as Record<string, unknown> } : {}),
      }));
    },
  };
}
