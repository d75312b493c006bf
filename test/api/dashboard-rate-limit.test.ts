/**
 * The per-session limit of the dashboard's routes (issue 35):
 * DASHBOARD_REQUESTS_PER_SESSION_PER_MINUTE requests a minute per session,
 * then 429 RATE_LIMITED with Retry-After; other sessions are not held; with
 * REDIS_URL every process counts the session's requests together.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { sessionCookieName } from '../../src/modules/users/index.js';
import { assertError } from '../helpers/assert.js';
import { API, member, startDashboardApp, type DashboardTestApp } from '../helpers/dashboard.js';

const LIMIT = 5;
const REDIS_URL = 'redis://127.0.0.1:6379';

describe('the dashboard per-session limit', () => {
  let t: DashboardTestApp;
  before(async () => {
    t = await startDashboardApp('pglite', { env: { DASHBOARD_REQUESTS_PER_SESSION_PER_MINUTE: String(LIMIT) } });
  });
  after(async () => {
    await t.close();
  });

  test('past the limit a session gets 429 RATE_LIMITED with Retry-After, on data and account routes alike; another session is not held', async () => {
    for (let i = 0; i < LIMIT; i++) assert.equal((await t.dash({ method: 'GET', url: i % 2 ? '/home' : '/session' })).statusCode, 200, `request ${i + 1}`);
    for (const url of ['/home', '/transactions.csv', '/session']) {
      const res = await t.dash({ method: 'GET', url });
      const body = assertError(res, 429, 'RATE_LIMITED');
      const retryAfter = Number(res.headers['retry-after']);
      assert.ok(retryAfter >= 1 && retryAfter <= 60, String(res.headers['retry-after']));
      assert.match(body.message, new RegExp(`${LIMIT} a minute`));
    }
    t.as('viewer');
    try {
      assert.equal((await t.dash({ method: 'GET', url: '/home' })).statusCode, 200, "another member's session");
    } finally {
      t.as('admin');
    }
    // A request without a session is 401 as before, not counted against anyone.
    t.as(undefined);
    try {
      assertError(await t.dash({ method: 'GET', url: '/home' }), 401, 'UNAUTHORIZED');
    } finally {
      t.as('admin');
    }
  });

  test('with REDIS_URL, two processes count one session together', async () => {
    const config = loadConfig({ REDIS_URL, DASHBOARD_REQUESTS_PER_SESSION_PER_MINUTE: String(LIMIT) });
    const apps = [await buildApp({ ...t.deps, config }), await buildApp({ ...t.deps, config })] as const;
    const cookieName = sessionCookieName(config.publicApiUrl);
    const get = (app: FastifyInstance, cookie: string) => app.inject({ method: 'GET', url: `${API}/home`, headers: { cookie: `${cookieName}=${cookie}` } });
    try {
      // Each instance counts once its Redis connection is up (it fails open while connecting).
      for (const [i, app] of apps.entries()) {
        const warmup = (await member(t, `warmup${i}@loja.example`, 'viewer')).cookie!;
        for (let n = 0; ; n++) {
          if ((await get(app, warmup)).statusCode === 429) break;
          assert.ok(n < 200, 'Redis did not become reachable');
          await sleep(10);
        }
      }
      const cookie = (await member(t, 'shared@loja.example', 'viewer')).cookie!;
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 2; i++) statuses.push((await get(apps[i % 2]!, cookie)).statusCode);
      assert.deepEqual(statuses, [...Array(LIMIT).fill(200), 429, 429]);
    } finally {
      await Promise.all(apps.map((a) => a.close()));
    }
  });
});
