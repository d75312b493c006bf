/**
 * Per-key rate limit: 429 RATE_LIMITED with Retry-After past the limit,
 * RateLimit-* headers on every response of a key, separate counters per key,
 * one shared counter across processes with Redis, and health routes exempt.
 *
 * The limiter's window is one second of real time. A burst of a few injected
 * requests takes milliseconds; should a loaded machine stretch one past the
 * window, the burst is repeated with a fresh key instead of failing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/db.js';
import { settled } from '../helpers/outcome.js';

const LIMIT = 3;
const REDIS_URL = 'redis://127.0.0.1:6379';
const engine = engines().at(-1)!;

function rateHeaders(res: LightMyRequestResponse) {
  const limit = res.headers['ratelimit-limit'];
  const remaining = res.headers['ratelimit-remaining'];
  const reset = res.headers['ratelimit-reset'];
  assert.ok(limit !== undefined && remaining !== undefined && reset !== undefined, `RateLimit-* headers missing on ${res.statusCode}`);
  assert.match(String(reset), /^\d+$/);
  assert.ok(Number(reset) <= 1, 'the window is one second');
  return { limit: Number(limit), remaining: Number(remaining) };
}

function assertLimited(res: LightMyRequestResponse): void {
  assert.equal(res.statusCode, 429, res.body);
  const body = res.json<{ code: string; message: string }>();
  assert.deepEqual(Object.keys(body).sort(), ['code', 'message']);
  assert.equal(body.code, 'RATE_LIMITED');
  assert.match(String(res.headers['retry-after']), /^[1-9]\d*$/);
  assert.ok(res.headers['x-request-id']);
  const { limit, remaining } = rateHeaders(res);
  assert.equal(limit, LIMIT);
  assert.equal(remaining, 0);
}

/** Runs `burst` with fresh keys until one run fits in a single window (at most 3 tries). */
async function withinOneWindow<T>(newKey: () => Promise<string>, burst: (key: string) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const key = await newKey();
    const started = performance.now();
    const result = await burst(key);
    if (performance.now() - started < 800 || attempt === 2) return result;
  }
}

describe(`rate limit (${engine})`, () => {
  let t: TestApp;
  let intentId: string;
  const newKey = async () => (settled(await t.services.companies.issueKey(t.companyId))).key;
  const get = (app: FastifyInstance, key: string, url = `/v2/payment-intents/${intentId}`) =>
    app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

  before(async () => {
    t = await startTestApp(engine, { env: { RATE_LIMIT_PER_SECOND: String(LIMIT) } });
    const key = await newKey();
    const created = await t.app.inject({
      method: 'POST',
      url: '/v2/payment-intents',
      headers: { authorization: `Bearer ${key}` },
      payload: { amountCents: 1000, paymentMethod: 'PIX', referenceId: 'rate', buyer: { name: 'Maria', document: '52998224725' } },
    });
    assert.equal(created.statusCode, 201, created.body);
    intentId = created.json<{ id: string }>().id;
  });
  after(() => t.close());

  test('the 4th request of a key within the window is 429 RATE_LIMITED with Retry-After; every response carries RateLimit-*', async () => {
    const responses = await withinOneWindow(newKey, async (key) => [
      await get(t.app, key),
      await get(t.app, key, '/v2/transactions?limit=5'),
      // An error response of the route still counts and still carries the headers.
      await get(t.app, key, '/v2/payment-intents/pi_00000000000000000000000000'),
      await get(t.app, key),
      await t.app.inject({ method: 'POST', url: '/v2/payment-intents', headers: { authorization: `Bearer ${key}` }, payload: {} }),
    ]);
    const [a, b, c, d, e] = responses as [LightMyRequestResponse, LightMyRequestResponse, LightMyRequestResponse, LightMyRequestResponse, LightMyRequestResponse];
    assert.equal(a.statusCode, 200);
    assert.equal(b.statusCode, 200);
    assert.equal(c.statusCode, 404);
    assert.deepEqual([a, b, c].map((r) => rateHeaders(r)), [
      { limit: LIMIT, remaining: 2 },
      { limit: LIMIT, remaining: 1 },
      { limit: LIMIT, remaining: 0 },
    ]);
    assert.equal(a.headers['retry-after'], undefined);
    assertLimited(d);
    assertLimited(e);
  });

  test('limits are per key: another key of the same company is not limited', async () => {
    const [first, second] = await withinOneWindow(newKey, async (key) => {
      for (let i = 0; i < LIMIT; i++) assert.equal((await get(t.app, key)).statusCode, 200);
      const limited = await get(t.app, key);
      const other = await get(t.app, await newKey());
      return [limited, other];
    });
    assertLimited(first!);
    assert.equal(second!.statusCode, 200, second!.body);
    assert.deepEqual(rateHeaders(second!), { limit: LIMIT, remaining: LIMIT - 1 });
  });

  test('health routes are never limited', async () => {
    const key = await newKey();
    for (let i = 0; i < LIMIT * 4; i++) {
      for (const url of ['/healthz', '/readyz']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
        assert.equal(res.statusCode, 200, `${url} #${i}: ${res.body}`);
        assert.equal(res.headers['retry-after'], undefined);
      }
    }
    // Those calls did not use up the key's allowance either.
    assert.deepEqual(rateHeaders(await get(t.app, key)), { limit: LIMIT, remaining: LIMIT - 1 });
  });

  test('with REDIS_URL, two app instances over the same database share one limit per key', async () => {
    const config = loadConfig({ RATE_LIMIT_PER_SECOND: String(LIMIT), REDIS_URL });
    const apps = [await buildApp({ ...t.deps, config }), await buildApp({ ...t.deps, config })] as const;
    try {
      // Wait until each instance's Redis connection counts requests (it fails open while connecting).
      for (const app of apps) {
        const warmup = await newKey();
        for (let i = 0; ; i++) {
          const res = await get(app, warmup);
          if (res.statusCode === 429 || rateHeaders(res).remaining < LIMIT) break;
          assert.ok(i < 100, 'Redis did not become reachable');
          await sleep(20);
        }
      }
      const responses = await withinOneWindow(newKey, async (key) => [
        await get(apps[0], key),
        await get(apps[1], key),
        await get(apps[0], key),
        await get(apps[1], key),
        await get(apps[0], key),
      ]);
      assert.deepEqual(responses.slice(0, 3).map((r) => [r.statusCode, rateHeaders(r).remaining]), [
        [200, 2],
        [200, 1],
        [200, 0],
      ]);
      assertLimited(responses[3]!);
      assertLimited(responses[4]!);

      // Control: without Redis each instance counts on its own.
      const local = loadConfig({ RATE_LIMIT_PER_SECOND: String(LIMIT) });
      const separate = [await buildApp({ ...t.deps, config: local }), await buildApp({ ...t.deps, config: local })] as const;
      try {
        const statuses = await withinOneWindow(newKey, async (key) => {
          const out: number[] = [];
          for (let i = 0; i < LIMIT; i++) for (const app of separate) out.push((await get(app, key)).statusCode);
          return out;
        });
        assert.deepEqual(statuses, Array(LIMIT * 2).fill(200));
      } finally {
        await Promise.all(separate.map((a) => a.close()));
      }
    } finally {
      await Promise.all(apps.map((a) => a.close()));
    }
  });
});
