/**
 * Headers on every answer (issue 35): `X-Content-Type-Options: nosniff` on
 * every response of the API and of the vault (routes, errors, 404s, the
 * parser's refusals), and `Strict-Transport-Security` when the public URL is
 * https, never over http.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildVaultApp } from '../../src/vault-app.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { rawHttp } from '../helpers/raw-http.js';

const HSTS = 'max-age=31536000; includeSubDomains';

/** A request of each kind: a route, an authenticated one, its errors, a 404, the dashboard's page and API, the docs. */
const REQUESTS: InjectOptions[] = [
  { method: 'GET', url: '/healthz' },
  { method: 'GET', url: '/v2/transactions' },
  { method: 'GET', url: '/v2/transactions?limit=0' },
  { method: 'GET', url: '/no-such-route' },
  { method: 'POST', url: '/v2/payment-intents', payload: '{', headers: { 'content-type': 'application/json' } },
  { method: 'GET', url: '/dashboard' },
  { method: 'GET', url: '/dashboard/api/home' },
  { method: 'GET', url: '/openapi.json' },
];

function check(res: LightMyRequestResponse, hsts: boolean, what: string): void {
  assert.equal(res.headers['x-content-type-options'], 'nosniff', `${what} → ${res.statusCode}`);
  assert.equal(res.headers['strict-transport-security'], hsts ? HSTS : undefined, `${what} → ${res.statusCode}`);
}

describe('security headers', () => {
  let http: TestApp;
  let https: TestApp;
  before(async () => {
    http = await startTestApp('pglite');
    https = await startTestApp('pglite', { env: { PUBLIC_API_URL: 'https://pagamentos.loja.example' } });
  });
  after(async () => {
    await http.close();
    await https.close();
  });

  test('nosniff on every answer of the API; Strict-Transport-Security only when PUBLIC_API_URL is https', async () => {
    for (const [t, hsts] of [[http, false], [https, true]] as const) {
      const statuses = new Set<number>();
      for (const request of REQUESTS) {
        for (const authorized of [false, true]) {
          const res = await (authorized ? t.call(request) : t.app.inject(request));
          statuses.add(res.statusCode);
          check(res, hsts, `${request.method} ${request.url}${authorized ? ' with a key' : ''}`);
        }
      }
      for (const status of [200, 400, 401, 404]) assert.ok(statuses.has(status), `a ${status} was checked`);
    }
  });

  test("the parser's own refusals, written on the socket, carry nosniff too", async () => {
    // Listening until the app closes (after all).
    const address = await http.app.listen({ host: '127.0.0.1', port: 0 });
    const { response, text } = await rawHttp(Number(new URL(address).port), Buffer.from('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n', 'latin1'));
    assert.equal(response?.status, 400, text);
    assert.equal(response?.headers['x-content-type-options'], 'nosniff', text);
  });

  test('the vault: nosniff on every answer, Strict-Transport-Security when its public URL is https', async () => {
    const deps = { env: 'sandbox' as const, db: https.db.db, keys: https.vault.keys, tokenizer: https.vault.tokenizer, client: https.vault.client, internalKey: https.deps.internalKey };
    for (const [publicUrl, hsts] of [[undefined, false], ['https://cofre.loja.example', true]] as const) {
      const vault = await buildVaultApp({ ...deps, ...(publicUrl ? { publicUrl } : {}) });
      try {
        for (const request of [{ method: 'GET', url: '/keys' }, { method: 'GET', url: '/nothing' }, { method: 'POST', url: '/tokenize', payload: {} }, { method: 'POST', url: '/internal/authorize', payload: {} }] as InjectOptions[]) {
          check(await vault.inject(request), hsts, `vault ${request.method} ${request.url}`);
        }
      } finally {
        await vault.close();
      }
    }
  });
});
