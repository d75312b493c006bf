/**
 * API keys over HTTP: missing, malformed, unknown, other-environment and
 * revoked keys are 401; scopes give 403; health routes are public; an
 * unreachable database is 503 with Retry-After. And the operator side: how
 * keys are issued and stored.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { buildApp, buildServices, type AppDeps } from '../../src/app.js';
import { KEY_CACHE_MS } from '../../src/http/auth.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { aesGcmSealer } from '../../src/lib/aes-gcm.js';
import { ManualClock } from '../../src/lib/clock.js';
import { newId } from '../../src/lib/ids.js';
import { buildVault } from '../../src/modules/vault/index.js';
import { SimulatedProvider } from '../../src/modules/providers/index.js';
import { CompanyService } from '../../src/modules/companies/index.js';
import { startTestApp, type TestApp, productionEnv } from '../helpers/app.js';
import { engines } from '../helpers/db.js';
import { isDomainError } from '../../src/lib/domain-error.js';
import { settled } from '../helpers/outcome.js';
import { assertError } from '../helpers/assert.js';
import { pixIntent } from '../helpers/fixtures.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const randomKeyBody = () => Array.from(randomBytes(43), (b) => BASE62[b % 62]).join('');
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

for (const engine of engines()) {
  describe(`auth (${engine})`, () => {
    let t: TestApp;
    let intentId: string;

    before(async () => {
      t = await startTestApp(engine);
      const created = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent() });
      assert.equal(created.statusCode, 201, created.body);
      intentId = created.json<{ id: string }>().id;
    });
    after(() => t.close());

    const getIntent = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: `/v2/payment-intents/${intentId}`, headers });
    const createIntent = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: '/v2/payment-intents', headers, payload: pixIntent({ referenceId: 'auth-check' }) });

    test('the issued key works (control for every refusal below)', async () => {
      assert.equal((await getIntent(bearer(t.key))).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'GET', url: `/v2/payment-intents/${intentId}`, headers: { authorization: `bearer   ${t.key}` } })).statusCode, 200);
    });

    test('no Authorization is 401 UNAUTHORIZED with WWW-Authenticate: Bearer, on every /v2 route', async () => {
      for (const [method, url] of [
        ['GET', `/v2/payment-intents/${intentId}`],
        ['POST', '/v2/payment-intents'],
        ['POST', `/v2/payment-intents/${intentId}/confirm`],
        ['POST', `/v2/payment-intents/${intentId}/cancel`],
        ['GET', '/v2/transactions'],
      ] as const) {
        assertError(await t.app.inject({ method, url }), 401, 'UNAUTHORIZED');
      }
    });

    test('a malformed or unknown key is 401', async () => {
      const wellFormedUnknown = `svc_test_${randomKeyBody()}`;
      for (const authorization of [
        `Basic ${Buffer.from('user:pass').toString('base64')}`,
        'Bearer',
        'Bearer not-a-key',
        `Bearer ${t.key.slice(0, -1)}`,
        `Bearer ${t.key}x`,
        `Bearer svc_prod_${randomKeyBody()}`,
        `Bearer ${wellFormedUnknown}`,
        `${t.key}`,
      ]) {
        assertError(await t.app.inject({ method: 'GET', url: `/v2/payment-intents/${intentId}`, headers: { authorization } }), 401, 'UNAUTHORIZED');
      }
    });

    test('a svc_live_ key is refused by the sandbox, even one that exists in the database', async () => {
      const production = new CompanyService(t.db.db, t.clock, newId, 'production');
      const live = settled(await production.issueKey(t.companyId));
      assert.match(live.key, /^svc_live_/);
      assertError(await getIntent(bearer(live.key)), 401, 'UNAUTHORIZED');
      assertError(await createIntent(bearer(live.key)), 401, 'UNAUTHORIZED');
    });

    test('a svc_test_ key is refused by an app with SVC_ENV=production, whose own svc_live_ key works', async () => {
      const prod = await startTestApp(engine, { env: productionEnv() });
      try {
        assert.match(prod.key, /^svc_live_/);
        const sandbox = settled(await new CompanyService(prod.db.db, prod.clock, newId, 'sandbox').issueKey(prod.companyId));
        assert.match(sandbox.key, /^svc_test_/);
        assertError(await prod.app.inject({ method: 'GET', url: '/v2/transactions', headers: bearer(sandbox.key) }), 401, 'UNAUTHORIZED');
        assert.equal((await prod.app.inject({ method: 'GET', url: '/v2/transactions', headers: bearer(prod.key) })).statusCode, 200);
        // Sandbox-only routes do not exist in production.
        const pay = await prod.app.inject({ method: 'POST', url: '/v2/sandbox/transactions/trx_00000000000000000000000000/pay', headers: bearer(prod.key) });
        assertError(pay, 404, 'NOT_FOUND');
      } finally {
        await prod.close();
      }
    });

    test('a revoked key is refused: at once on a node that had not cached it, within the cache time on one that had', async () => {
      const issued = settled(await t.services.companies.issueKey(t.companyId));
      assert.equal((await getIntent(bearer(issued.key))).statusCode, 200, 'works before revocation (and is now cached)');
      const revoked = settled(await t.services.companies.revokeKey(issued.id));
      assert.equal(revoked.revokedAt, t.clock.now().toISOString());

      const otherNode = await buildApp(t.deps);
      try {
        assertError(await otherNode.inject({ method: 'GET', url: `/v2/payment-intents/${intentId}`, headers: bearer(issued.key) }), 401, 'UNAUTHORIZED');
      } finally {
        await otherNode.close();
      }
      // The first node's cache lives KEY_CACHE_MS on the app's clock; the contract allows 5 s.
      assert.ok(KEY_CACHE_MS <= 5_000, `the key cache lives ${KEY_CACHE_MS} ms, more than the 5 s the contract allows`);
      t.clock.advance(KEY_CACHE_MS - 1);
      assert.equal((await getIntent(bearer(issued.key))).statusCode, 200, 'still answered from the cache just before it runs out');
      t.clock.advance(1);
      assertError(await getIntent(bearer(issued.key)), 401, 'UNAUTHORIZED');
      assertError(await createIntent(bearer(issued.key)), 401, 'UNAUTHORIZED');
      assert.equal((await getIntent(bearer(t.key))).statusCode, 200, 'other keys of the company still work');
      const again = await t.services.companies.revokeKey(issued.id);
      assert.ok(isDomainError(again));
      assert.match(again.message.en, /no active key/);
    });

    test('a payments:read key reads but cannot write (403 FORBIDDEN), and writes nothing', async () => {
      const { key } = settled(await t.services.companies.issueKey(t.companyId, ['payments:read']));
      assert.equal((await getIntent(bearer(key))).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'GET', url: '/v2/transactions', headers: bearer(key) })).statusCode, 200);
      const before = await t.db.db.selectFrom('payment_intents').select('id').where('reference_id', '=', 'auth-check').execute();
      assertError(await createIntent(bearer(key)), 403, 'FORBIDDEN');
      assertError(await t.app.inject({ method: 'POST', url: `/v2/payment-intents/${intentId}/cancel`, headers: bearer(key) }), 403, 'FORBIDDEN');
      assertError(
        await t.app.inject({ method: 'POST', url: `/v2/payment-intents/${intentId}/confirm`, headers: { ...bearer(key), 'idempotency-key': 'read-only' } }),
        403,
        'FORBIDDEN',
      );
      const pay = await t.app.inject({ method: 'POST', url: '/v2/sandbox/transactions/trx_00000000000000000000000000/pay', headers: bearer(key) });
      assertError(pay, 403, 'FORBIDDEN');
      const afterRows = await t.db.db.selectFrom('payment_intents').select('id').where('reference_id', '=', 'auth-check').execute();
      assert.equal(afterRows.length, before.length);
      const intent = (await getIntent(bearer(t.key))).json<{ status: string }>();
      assert.equal(intent.status, 'REQUIRES_CONFIRMATION', 'the forbidden cancel and confirm did nothing');
    });

    test('a key with only webhooks scopes is 403 on payments routes', async () => {
      const { key } = settled(await t.services.companies.issueKey(t.companyId, ['webhooks:read', 'webhooks:write']));
      assert.equal((await t.app.inject({ method: 'GET', url: '/v2/webhooks', headers: bearer(key) })).statusCode, 200, 'the key itself is valid');
      assertError(await getIntent(bearer(key)), 403, 'FORBIDDEN');
      assertError(await createIntent(bearer(key)), 403, 'FORBIDDEN');
      assertError(await t.app.inject({ method: 'GET', url: '/v2/transactions', headers: bearer(key) }), 403, 'FORBIDDEN');
      const pay = await t.app.inject({ method: 'POST', url: '/v2/sandbox/transactions/trx_00000000000000000000000000/pay', headers: bearer(key) });
      assertError(pay, 403, 'FORBIDDEN');
    });

    test('/healthz and /readyz need no key and answer 200', async () => {
      const health = await t.app.inject({ method: 'GET', url: '/healthz' });
      assert.equal(health.statusCode, 200);
      assert.deepEqual(health.json(), { status: 'ok' });
      const ready = await t.app.inject({ method: 'GET', url: '/readyz', headers: { authorization: 'Bearer garbage' } });
      assert.equal(ready.statusCode, 200);
      assert.deepEqual(ready.json(), { status: 'ready' });
    });

    test('CompanyService issues svc_test_ + 43 base62 characters, stores only the SHA-256, lists the hint', async () => {
      const issued = settled(await t.services.companies.issueKey(t.companyId, ['payments:read']));
      assert.match(issued.key, /^svc_test_[0-9A-Za-z]{43}$/);
      assert.equal(issued.hint, issued.key.slice(-4));
      const other = settled(await t.services.companies.issueKey(t.companyId));
      assert.notEqual(other.key, issued.key);

      const row = await t.db.db.selectFrom('api_keys').selectAll().where('id', '=', issued.id).executeTakeFirstOrThrow();
      assert.equal(row.token_hash, createHash('sha256').update(issued.key).digest('hex'));
      const stored = JSON.stringify(row);
      assert.ok(!stored.includes(issued.key), 'the row does not hold the key');
      assert.ok(!stored.includes(issued.key.slice('svc_test_'.length)), 'nor its secret part');
      assert.deepEqual(row.scopes, ['payments:read']);

      const listed = settled(await t.services.companies.listKeys(t.companyId));
      const mine = listed.find((k) => k.id === issued.id);
      assert.ok(mine);
      assert.equal(mine.hint, issued.key.slice(-4));
      assert.ok(!('key' in mine));
      assert.ok(!JSON.stringify(listed).includes(issued.key));
      assert.deepEqual(listed.find((k) => k.id === other.id)?.scopes, null, 'no scopes listed means all');

      const refused = await t.services.companies.issueKey(t.companyId, ['payments:admin']);
      assert.ok(isDomainError(refused));
      assert.match(refused.message.en, /unknown scope/);
    });
  });
}

describe('database unreachable', () => {
  test('/readyz and /v2 routes answer 503 SERVICE_UNAVAILABLE with Retry-After, the process stays up, a reachable app answers 200', async () => {
    const handle = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:1/x', poolSize: 2 });
    const clock = new ManualClock();
    const config = loadConfig({});
    const acquirer = new SimulatedProvider(handle.db, clock);
    const internalKey = randomBytes(32);
    const vault = buildVault({ db: handle.db, clock, newId, acquirer, masterKey: randomBytes(32), internalKey, attemptsPerIpPerMinute: 5, intentsPerCardPerHour: 10 }).client;
    const deps: AppDeps = { config, db: handle.db, clock, newId, sealer: aesGcmSealer(randomBytes(32)), providers: { PIX: acquirer, BOLETO: acquirer, CREDIT_CARD: acquirer }, internalKey, vault };
    const app = await buildApp(deps, buildServices(deps));
    const key = `svc_test_${randomKeyBody()}`;
    try {
      for (let round = 0; round < 2; round++) {
        const ready = await app.inject({ method: 'GET', url: '/readyz' });
        assertError(ready, 503, 'SERVICE_UNAVAILABLE');
        assert.match(String(ready.headers['retry-after']), /^[1-9]\d*$/);
        for (const [method, url] of [
          ['GET', '/v2/transactions'],
          ['POST', '/v2/payment-intents'],
        ] as const) {
          const res = await app.inject({ method, url, headers: bearer(key), ...(method === 'POST' ? { payload: pixIntent() } : {}) });
          assertError(res, 503, 'SERVICE_UNAVAILABLE');
          assert.match(String(res.headers['retry-after']), /^[1-9]\d*$/);
        }
        const health = await app.inject({ method: 'GET', url: '/healthz' });
        assert.equal(health.statusCode, 200, 'liveness does not depend on the database');
      }
    } finally {
      await app.close();
      await handle.close();
    }
    // The same wiring over a reachable database is ready.
    const reachable = await startTestApp(engines().at(-1)!);
    try {
      assert.equal((await reachable.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
      assert.equal((await reachable.call({ method: 'GET', url: '/v2/transactions' })).statusCode, 200);
    } finally {
      await reachable.close();
    }
  });
});
