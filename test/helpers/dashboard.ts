/**
 * The dashboard's identity API as a browser uses it, over inject: a
 * `Browser` keeps its session cookie and CSRF token and sends the
 * dashboard's Origin, as the pages do; helpers invite and activate members.
 */
import assert from 'node:assert/strict';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { sessionCookieName, type Me, type Role } from '../../src/modules/users/index.js';
import { base32Decode, stepAt, totpCode } from '../../src/modules/users/totp.js';
import type { TestApp } from './app.js';
import { settled } from './outcome.js';

export const API = '/dashboard/api';
export const PASSWORD = 'correct horse battery';

export const originOf = (t: TestApp): string => new URL(t.deps.config.publicApiUrl).origin;

/** The session cookie a response set, if any. */
export function sessionCookie(t: TestApp, res: LightMyRequestResponse): string | undefined {
  const name = sessionCookieName(t.deps.config.publicApiUrl);
  const header = res.headers['set-cookie'];
  const line = (Array.isArray(header) ? header : header ? [header] : []).find((c) => c.startsWith(`${name}=`));
  const value = line?.slice(name.length + 1).split(';')[0];
  return value ? value : undefined;
}

export class Browser {
  cookie: string | undefined;
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
        ...(this.cookie ? { cookie: `${name}=${this.cookie}` } : {}),
        ...(method === 'GET' ? {} : { origin: originOf(this.t) }),
        ...(this.csrf && method !== 'GET' ? { 'x-csrf-token': this.csrf } : {}),
        ...headers,
      },
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
    const cookie = sessionCookie(this.t, res);
    if (res.headers['set-cookie']) this.cookie = cookie;
    const body = res.headers['content-type']?.toString().startsWith('application/json') ? (res.json() as Partial<Me>) : undefined;
    if (body?.csrfToken) this.csrf = body.csrfToken;
    return res;
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
  const res = await browser.send('POST', `/invitations/${token}`, { name: email.split('@')[0], password: PASSWORD, passwordConfirmation: PASSWORD });
  assert.equal(res.statusCode, 200, res.body);
  return browser;
}

/** The code an authenticator app shows for `secret` at the app's clock, `offset` steps away. */
export const codeAt = (t: TestApp, secret: string, offset = 0): string => totpCode(base32Decode(secret), stepAt(t.clock.now()) + offset);
