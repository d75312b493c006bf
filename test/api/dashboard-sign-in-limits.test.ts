/**
 * Brute force on the dashboard's sign-in: 10 failures for one e-mail within
 * 15 minutes lock it 15 minutes, even for the right password (429 with
 * Retry-After and a message saying so), whether the e-mail has a user or
 * not; and DASHBOARD_SIGNIN_PER_IP_PER_MINUTE limits each client address,
 * counted in Redis across processes when REDIS_URL is set.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { assertError } from '../helpers/assert.js';
import { engines } from '../helpers/db.js';
import { API, Browser, codeAt, member, originOf, PASSWORD } from '../helpers/dashboard.js';

const MINUTE = 60_000;
// The in-memory per-address counts live as long as the app, Redis's for a minute across runs: addresses are random.
const randomAddress = () => `10.${[...randomBytes(3)].join('.')}`;

for (const engine of engines()) {
  describe(`dashboard sign-in limits (${engine})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
    });
    after(() => t.close());

    test('10 failures in 15 minutes lock the e-mail for 15 minutes, even for the right password', async () => {
      await member(t, 'lock@loja.example', 'viewer');
      const browser = new Browser(t);
      for (let i = 0; i < 10; i++) {
        assertError(await browser.signIn('lock@loja.example', `wrong password ${i}`), 401, 'UNAUTHORIZED');
        t.clock.advance(MINUTE);
      }
      const refused = await browser.signIn('lock@loja.example');
      assertError(refused, 429, 'RATE_LIMITED');
      const retryAfter = Number(refused.headers['retry-after']);
      assert.ok(retryAfter > 13 * 60 && retryAfter <= 15 * 60, `Retry-After ${retryAfter}`);
      assert.match(refused.json().message, /locked; try again in 14 min/);
      assert.equal(browser.cookie, undefined, 'no session');
      t.clock.advance(14 * MINUTE - 1_000);
      assertError(await browser.signIn('lock@loja.example'), 429, 'RATE_LIMITED');
      t.clock.advance(1_000);
      const ok = await browser.signIn('lock@loja.example');
      assert.equal(ok.statusCode, 200, ok.body);
    });

    test('failures older than 15 minutes do not count, and a success starts the count again', async () => {
      await member(t, 'slow@loja.example', 'viewer');
      const browser = new Browser(t);
      for (let i = 0; i < 9; i++) assertError(await browser.signIn('slow@loja.example', 'wrong password!'), 401, 'UNAUTHORIZED');
      t.clock.advance(15 * MINUTE);
      assertError(await browser.signIn('slow@loja.example', 'wrong password!'), 401, 'UNAUTHORIZED');
      assert.equal((await browser.signIn('slow@loja.example')).statusCode, 200);
      for (let i = 0; i < 9; i++) assertError(await browser.signIn('slow@loja.example', 'wrong password!'), 401, 'UNAUTHORIZED');
      assert.equal((await browser.signIn('slow@loja.example')).statusCode, 200);
    });

    test('an e-mail no user has is locked the same way (nothing tells which e-mails exist)', async () => {
      const browser = new Browser(t);
      for (let i = 0; i < 10; i++) assertError(await browser.signIn('ghost@loja.example', 'whatever it is'), 401, 'UNAUTHORIZED');
      assertError(await browser.signIn('ghost@loja.example', 'whatever it is'), 429, 'RATE_LIMITED');
    });

    test('5 wrong two-step codes end the half-open session and lock the e-mail', async () => {
      const browser = await member(t, 'code@loja.example', 'viewer');
      const { secret } = (await browser.send('POST', '/account/totp', { password: PASSWORD })).json();
      assert.equal((await browser.send('POST', '/account/totp/confirm', { code: codeAt(t, secret) })).statusCode, 200);
      const signingIn = new Browser(t);
      assert.deepEqual((await signingIn.signIn('code@loja.example')).json(), { stage: 'totp' });
      const wrong = (i: number) => String((Number(codeAt(t, secret)) + 1 + i) % 1_000_000).padStart(6, '0');
      for (let i = 0; i < 4; i++) assertError(await signingIn.send('POST', '/session/totp', { code: wrong(i) }), 401, 'UNAUTHORIZED');
      const locked = await signingIn.send('POST', '/session/totp', { code: wrong(4) });
      assertError(locked, 429, 'RATE_LIMITED');
      assert.match(locked.json().message, /locked; try again in 15 min/);
      t.clock.advance(30_000);
      assertError(await signingIn.send('POST', '/session/totp', { code: codeAt(t, secret) }), 401, 'UNAUTHORIZED', undefined);
      assertError(await new Browser(t).signIn('code@loja.example'), 429, 'RATE_LIMITED');
    });

    test('an address past DASHBOARD_SIGNIN_PER_IP_PER_MINUTE gets 429', async () => {
      const limited = await startTestApp(engine, { env: { DASHBOARD_SIGNIN_PER_IP_PER_MINUTE: '3' } });
      try {
        await member(limited, 'ip@loja.example', 'viewer');
        const browser = new Browser(limited);
        browser.address = randomAddress();
        for (let i = 0; i < 3; i++) assertError(await browser.signIn('ip@loja.example', 'wrong password!'), 401, 'UNAUTHORIZED');
        const refused = await browser.signIn('ip@loja.example');
        assertError(refused, 429, 'RATE_LIMITED');
        assert.ok(Number(refused.headers['retry-after']) >= 1);
        const elsewhere = new Browser(limited);
        elsewhere.address = randomAddress();
        assert.equal((await elsewhere.signIn('ip@loja.example')).statusCode, 200, 'another address has its own count');
      } finally {
        await limited.close();
      }
    });

    test('with REDIS_URL two processes share the per-address count', async () => {
      await member(t, 'redis@loja.example', 'viewer');
      const config = loadConfig({ RATE_LIMIT_PER_SECOND: '100000', DASHBOARD_SIGNIN_PER_IP_PER_MINUTE: '3', REDIS_URL: 'redis://127.0.0.1:6379' });
      const apps = [await buildApp({ ...t.deps, config }, t.services), await buildApp({ ...t.deps, config }, t.services)] as const;
      const signIn = (app: FastifyInstance, address: string, password: string) =>
        app.inject({ method: 'POST', url: `${API}/session`, remoteAddress: address, headers: { origin: originOf(t) }, payload: { email: 'redis@loja.example', password } });
      try {
        // Each instance counts in Redis once its connection is up (it lets requests through while connecting).
        for (const app of apps) {
          const warmup = randomAddress();
          for (let i = 0; (await app.inject({ method: 'POST', url: `${API}/invitations/lookup`, remoteAddress: warmup, payload: { token: 'none' } })).statusCode !== 429; i++) {
            assert.ok(i < 200, 'Redis did not become reachable');
            await sleep(10);
          }
        }
        const address = randomAddress();
        const statuses = [];
        for (const app of [apps[0], apps[1], apps[0], apps[1]]) statuses.push((await signIn(app, address, 'wrong password!')).statusCode);
        assert.deepEqual(statuses, [401, 401, 401, 429]);
      } finally {
        await Promise.all(apps.map((a) => a.close()));
      }
    });
  });
}
