/**
 * The real HTTP sender (contract "Webhooks": 10 s timeout, redirects not
 * followed, any 2xx is success) against a plain-HTTP receiver on 127.0.0.1,
 * allowed by the test-only WEBHOOK_ALLOW_LOOPBACK. The timeout path waits in
 * real time, so the app's sender is built with a short request timeout (the
 * production one is DELIVERY_TIMEOUT_MS, 10 s): a receiver that answers only
 * after that timeout must be given up on at the timeout and recorded as failed.
 * It runs on PGlite only: what it checks is HTTP, not the database.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { httpSender } from '../../src/modules/webhooks/index.js';
import { pixIntent } from '../helpers/fixtures.js';
import { deliveredBody } from '../../src/modules/events/index.js';

type Json = Record<string, any>;

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** The request timeout of the senders under test (production: DELIVERY_TIMEOUT_MS). */
const TIMEOUT_MS = 500;
/** Room for scheduling on a loaded machine; still well before the slow receiver answers. */
const SLACK_MS = 2_000;
/** The slow receiver answers after the timeout and the slack, so a sender that waited for it is caught. */
const SLOW_ANSWER_MS = TIMEOUT_MS + SLACK_MS + 1_000;

describe('webhook delivery over real HTTP (pglite)', () => {
  let t: TestApp;
  let server: http.Server;
  let base: string;
  const received: Received[] = [];
  const timers = new Set<NodeJS.Timeout>();

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const path = req.url ?? '/';
        received.push({ path, headers: req.headers, body });
        if (path.startsWith('/slow')) {
          const timer = setTimeout(() => {
            timers.delete(timer);
            if (!res.destroyed) res.writeHead(204).end();
          }, SLOW_ANSWER_MS);
          timers.add(timer);
        } else if (path.startsWith('/ok')) {
          res.writeHead(204).end();
        } else if (path.startsWith('/redirect')) {
          res.writeHead(302, { location: `${base}/target` }).end('moved');
        } else if (path.startsWith('/target')) {
          res.writeHead(200).end('ok');
        } else {
          res.writeHead(404).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await startTestApp('pglite', { env: { WEBHOOK_ALLOW_LOOPBACK: 'true' }, sender: httpSender({ allowLoopback: true, timeoutMs: TIMEOUT_MS }) });
  });

  after(async () => {
    for (const timer of timers) clearTimeout(timer);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await t.close();
  });

  /** Registers through the API (https on loopback is allowed by the test setting), then points the row at plain http. */
  async function registerPlainHttp(path: string): Promise<Json> {
    const httpsUrl = `${base.replace('http://', 'https://')}${path}`;
    const res = await t.call({ method: 'POST', url: '/v2/webhooks', payload: { url: httpsUrl, events: ['transaction.created'] } });
    assert.equal(res.statusCode, 201, res.body);
    const hook = res.json();
    await t.db.db.updateTable('webhooks').set({ url: `${base}${path}` }).where('id', '=', hook.id).execute();
    return hook;
  }

  async function attempts(webhookId: string): Promise<Json[]> {
    const res = await t.call({ method: 'GET', url: `/v2/webhooks/${webhookId}/deliveries` });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  }

  test('the sender: 204 is success, a 302 is not followed, a bad port is an error', async () => {
    const sender = httpSender({ allowLoopback: true });
    const before = received.length;
    assert.deepEqual(await sender.send(`${base}/ok/direct`, { 'content-type': 'application/json' }, '{"a":1}'), { statusCode: 204 });
    assert.deepEqual(received.slice(before).map((r) => [r.path, r.body]), [['/ok/direct', '{"a":1}']]);

    const redirected = await sender.send(`${base}/redirect/direct`, { 'content-type': 'application/json' }, '{}');
    assert.deepEqual(redirected, { statusCode: 302 });
    assert.ok(!received.some((r) => r.path === '/target'), 'the redirect target is never requested');

    // Nothing listens on port 9 of loopback (discard): the error is returned, not thrown.
    const refused = await sender.send('http://127.0.0.1:9/x', {}, '{}');
    assert.ok('error' in refused, JSON.stringify(refused));

    // Without the test setting, loopback is refused before connecting.
    const strict = await httpSender({ allowLoopback: false }).send(`${base}/ok/strict`, {}, '{}');
    assert.ok('error' in strict && /not public/.test(strict.error), JSON.stringify(strict));
    assert.ok(!received.some((r) => r.path === '/ok/strict'));
  });

  test('through the worker: a receiver answering after the timeout is given up on at the timeout and fails; 204 succeeds; 302 fails', async () => {
    const slow = await registerPlainHttp('/slow');
    const ok = await registerPlainHttp('/ok');
    const redirect = await registerPlainHttp('/redirect');
    const sale = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ confirm: true }) });
    assert.equal(sale.statusCode, 201, sale.body);
    const event = await t.db.db.selectFrom('events').select(['id', 'body']).where('transaction_id', '=', sale.json().transaction.id).executeTakeFirstOrThrow();

    // The direct sender against the slow receiver, alongside the worker's round, so the suite waits for the timeout once.
    const direct = (async () => {
      const started = performance.now();
      const result = await httpSender({ allowLoopback: true, timeoutMs: TIMEOUT_MS }).send(`${base}/slow/direct`, {}, '{}');
      return { result, elapsed: performance.now() - started };
    })();
    const started = performance.now();
    assert.equal(await t.services.deliveries.runOnce(), 3);
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= TIMEOUT_MS - 50 && elapsed < TIMEOUT_MS + SLACK_MS, `the round ended at the timeout: ${elapsed} ms`);

    const d = await direct;
    assert.ok('error' in d.result && d.result.error === `timeout after ${TIMEOUT_MS} ms`, JSON.stringify(d.result));
    assert.ok(d.elapsed >= TIMEOUT_MS - 50 && d.elapsed < TIMEOUT_MS + SLACK_MS, `the direct send gave up at the timeout: ${d.elapsed} ms`);

    const [slowAttempt] = await attempts(slow.id);
    assert.equal(slowAttempt!.succeeded, false);
    assert.equal(slowAttempt!.error, `timeout after ${TIMEOUT_MS} ms`);
    assert.equal('statusCode' in slowAttempt!, false);
    assert.ok(slowAttempt!.durationMs >= TIMEOUT_MS - 50 && slowAttempt!.durationMs < TIMEOUT_MS + SLACK_MS, String(slowAttempt!.durationMs));

    const [okAttempt] = await attempts(ok.id);
    assert.equal(okAttempt!.succeeded, true);
    assert.equal(okAttempt!.statusCode, 204);

    const [redirectAttempt] = await attempts(redirect.id);
    assert.equal(redirectAttempt!.succeeded, false);
    assert.equal(redirectAttempt!.statusCode, 302);
    assert.ok(!received.some((r) => r.path === '/target'), 'the redirect was not followed');

    const states = await t.db.db.selectFrom('webhook_deliveries').select(['webhook_id', 'state']).where('event_id', '=', event.id).execute();
    assert.deepEqual(Object.fromEntries(states.map((s) => [s.webhook_id, s.state])), { [slow.id]: 'FAILED', [ok.id]: 'SUCCEEDED', [redirect.id]: 'FAILED' });

    // What the receiver got over the wire: the event as delivered, signed with the registration's secret.
    const got = received.find((r) => r.path === '/ok')!;
    assert.equal(got.body, deliveredBody(event.body));
    assert.equal(got.headers['x-svc-event-id'], event.id);
    assert.equal(got.headers['x-svc-event'], 'transaction.created');
    assert.match(String(got.headers['content-type']), /^application\/json/);
    const timestamp = String(got.headers['x-svc-timestamp']);
    assert.equal(timestamp, String(Math.floor(t.clock.now().getTime() / 1000)));
    const expected = `v1=${createHmac('sha256', ok.secret).update(`${timestamp}.${got.body}`).digest('hex')}`;
    assert.equal(got.headers['x-svc-signature'], expected);
  });
});
