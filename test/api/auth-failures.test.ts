/**
 * Failed authentications: past AUTH_FAILURES_PER_IP_PER_MINUTE 401s in a
 * minute an address gets 429 RATE_LIMITED with Retry-After, while a key that
 * works keeps working from it, one this process never saw included; another
 * address keeps its own count; with REDIS_URL two processes share the count.
 * And the key cache: unknown keys are remembered apart from known ones, for
 * the same 2 s as revocation, so a flood of 10,000 random keys leaves a known
 * key in the cache.
 *
 * Each app here counts the key lookups it makes (a wrapper around the
 * companies module's lookup), so a test can tell a cached answer from a query.
 * Addresses are random: Redis keeps counts for a minute across runs.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type Services } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { KEY_CACHE_MS } from '../../src/http/auth.js';
import { hashKey, type KeyLookup } from '../../src/modules/companies/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { assertError } from '../helpers/assert.js';
import { engines } from '../helpers/db.js';
import { settled } from '../helpers/outcome.js';

const LIMIT = 3;
const REDIS_URL = 'redis://127.0.0.1:6379';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const randomKey = () => `svc_test_${Array.from(randomBytes(43), (b) => BASE62[b % 62]).join('')}`;
const randomAddress = () => `10.${[...randomBytes(3)].join('.')}`;

/**
 * An app over `t`'s database and services whose key lookups are counted.
 * With `onlyIssued`, a key `t` did not issue is answered unknown without a
 * query (random keys cannot be in the database): a flood then measures the
 * cache, not the database.
 */
async function countingApp(t: TestApp, opts: { onlyIssued?: boolean } = {}): Promise<{ app: FastifyInstance; lookups(): number }> {
  let lookups = 0;
  const issued = hashKey(t.key);
  const keyLookup: KeyLookup = (hash) => {
    lookups++;
    return opts.onlyIssued && hash !== issued ? Promise.resolve(undefined) : t.services.companies.keyLookup(hash);
  };
  const companies = Object.create(t.services.companies, { keyLookup: { value: keyLookup } }) as Services['companies'];
  return { app: await buildApp(t.deps, { ...t.services, companies }), lookups: () => lookups };
}

function list(app: FastifyInstance, address: string, authorization?: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url: '/v2/transactions?limit=1', remoteAddress: address, headers: authorization ? { authorization } : {} });
}

function assertLimited(res: LightMyRequestResponse): void {
  assertError(res, 429, 'RATE_LIMITED');
  const retryAfter = Number(res.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${res.headers['retry-after']}`);
  assert.match(res.json<{ message: string }>().message, new RegExp(`\\(${LIMIT} a minute\\)`));
}

for (const engine of engines()) {
  describe(`failed authentications (${engine})`, () => {
    let t: TestApp;
    let counted: Awaited<ReturnType<typeof countingApp>>;

    before(async () => {
      t = await startTestApp(engine, { env: { AUTH_FAILURES_PER_IP_PER_MINUTE: String(LIMIT) } });
      counted = await countingApp(t);
    });
    after(async () => {
      await counted.app.close();
      await t.close();
    });

    test('past the limit an address gets 429 with Retry-After, and a working key keeps working from it, even one never seen', async () => {
      const { app, lookups } = counted;
      const address = randomAddress();
      assert.equal((await list(app, address, `Bearer ${t.key}`)).statusCode, 200, 'the key works from this address first');
      assertError(await list(app, address, `Bearer ${randomKey()}`), 401, 'UNAUTHORIZED');
      assertError(await list(app, address), 401, 'UNAUTHORIZED');
      assertError(await list(app, address, 'Bearer not-a-key'), 401, 'UNAUTHORIZED');

      assertLimited(await list(app, address, `Bearer ${randomKey()}`));
      assertLimited(await list(app, address, `Bearer ${randomKey()}`));
      assertLimited(await list(app, address));

      // A shop behind the same address as the attacker, on a process that never saw its key.
      const fresh = settled(await t.services.companies.issueKey(t.companyId));
      assert.equal((await list(app, address, `Bearer ${fresh.key}`)).statusCode, 200, 'a valid key never seen by this process works');

      const before = lookups();
      assert.equal((await list(app, address, `Bearer ${t.key}`)).statusCode, 200, 'the working key is not slowed');
      t.clock.advance(KEY_CACHE_MS);
      assert.equal((await list(app, address, `Bearer ${t.key}`)).statusCode, 200, 'nor once its cache entry has run out');
      assert.equal(lookups(), before + 1, 'looked up again: revocation still reaches it');

      // Another address has its own count.
      assertError(await list(app, randomAddress(), `Bearer ${randomKey()}`), 401, 'UNAUTHORIZED');
    });

    test('requests that miss the cache for one key at the same time share one lookup', async () => {
      const { app, lookups } = counted;
      t.clock.advance(KEY_CACHE_MS);
      const before = lookups();
      const answers = await Promise.all(Array.from({ length: 20 }, () => list(app, randomAddress(), `Bearer ${t.key}`)));
      assert.deepEqual(
        answers.map((res) => res.statusCode),
        Array(20).fill(200),
      );
      assert.equal(lookups(), before + 1, 'one lookup for the 20 requests');
    });

    test('an unknown key is remembered for the 2 s revocation takes: a key issued after a miss works within that bound', async () => {
      const { app, lookups } = counted;
      const address = randomAddress();
      const issued = settled(await t.services.companies.issueKey(t.companyId));
      const hidden = { token_hash: `hidden-${issued.id}` };
      // As if the key were tried before it was issued: the database does not know it yet.
      const { token_hash } = await t.db.db.selectFrom('api_keys').select('token_hash').where('id', '=', issued.id).executeTakeFirstOrThrow();
      await t.db.db.updateTable('api_keys').set(hidden).where('id', '=', issued.id).execute();
      const before = lookups();
      assertError(await list(app, address, `Bearer ${issued.key}`), 401, 'UNAUTHORIZED');
      assertError(await list(app, address, `Bearer ${issued.key}`), 401, 'UNAUTHORIZED');
      assert.equal(lookups(), before + 1, 'the second miss is answered from memory');

      await t.db.db.updateTable('api_keys').set({ token_hash }).where('id', '=', issued.id).execute();
      // The miss is remembered per key, whatever the address; another one keeps these checks clear of the failure limit.
      const elsewhere = randomAddress();
      t.clock.advance(KEY_CACHE_MS - 1);
      assertError(await list(app, elsewhere, `Bearer ${issued.key}`), 401, 'UNAUTHORIZED');
      t.clock.advance(1);
      assert.equal((await list(app, elsewhere, `Bearer ${issued.key}`)).statusCode, 200, 'issued, it works once the miss is KEY_CACHE_MS old');
    });
  });
}

describe(`the key cache (${engines().at(-1)!})`, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(engines().at(-1)!);
  });
  after(() => t.close());

  test('10,000 random keys do not evict a known key: it is answered from the cache, without a lookup', async () => {
    const { app, lookups } = await countingApp(t, { onlyIssued: true });
    try {
      const address = randomAddress();
      assert.equal((await list(app, address, `Bearer ${t.key}`)).statusCode, 200);
      const before = lookups();
      for (let batch = 0; batch < 100; batch++) {
        const answers = await Promise.all(Array.from({ length: 100 }, () => list(app, address, `Bearer ${randomKey()}`)));
        assert.deepEqual([...new Set(answers.map((r) => r.statusCode))], [401]);
      }
      assert.equal(lookups(), before + 10_000, 'each random key was looked up once');
      assert.equal((await list(app, address, `Bearer ${t.key}`)).statusCode, 200);
      assert.equal(lookups(), before + 10_000, 'the known key came from the cache');
    } finally {
      await app.close();
    }
  });
});

describe(`failed authentications with REDIS_URL (${engines().at(-1)!})`, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(engines().at(-1)!);
  });
  after(() => t.close());

  test('two app instances share one count per address', async () => {
    const config = loadConfig({ RATE_LIMIT_PER_SECOND: '100000', AUTH_FAILURES_PER_IP_PER_MINUTE: String(LIMIT), REDIS_URL });
    const apps = [await buildApp({ ...t.deps, config }), await buildApp({ ...t.deps, config })] as const;
    try {
      // Each instance counts in Redis once its connection is up (it lets requests through while connecting).
      for (const app of apps) {
        const warmup = randomAddress();
        for (let i = 0; (await list(app, warmup)).statusCode !== 429; i++) {
          assert.ok(i < 200, 'Redis did not become reachable');
          await sleep(10);
        }
      }
      const address = randomAddress();
      assert.equal((await list(apps[1], address, `Bearer ${t.key}`)).statusCode, 200, 'the key works from this address first');
      const statuses = [];
      for (const app of [apps[0], apps[1], apps[0], apps[1]]) statuses.push((await list(app, address, `Bearer ${randomKey()}`)).statusCode);
      assert.deepEqual(statuses, [401, 401, 401, 429]);
      assertLimited(await list(apps[0], address));
      assert.equal((await list(apps[1], address, `Bearer ${t.key}`)).statusCode, 200, 'a working key from that address still works');
    } finally {
      await Promise.all(apps.map((a) => a.close()));
    }
  });
});
