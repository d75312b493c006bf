/**
 * The built SDK (packages/sdk/dist, as published) in Chromium, with nothing
 * but what a browser has: a page imports it, creates an intent through a
 * stand-in API that answers 503 first (the retry carries the same
 * Idempotency-Key), walks a list of two pages with `for await`, and verifies
 * a Standard Webhooks signature computed here with node:crypto.
 */
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { REPO_ROOT } from '../helpers/server.js';
import { launchChromium } from '../helpers/chromium.js';

const DIST = path.join(REPO_ROOT, 'packages', 'sdk', 'dist');

let server: http.Server;
let origin: string;
let browser: Browser;
const keys: string[] = [];

before(async () => {
  let creates = 0;
  server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>shop</title>');
    if (url.pathname.startsWith('/sdk/')) {
      const file = path.join(DIST, path.basename(url.pathname));
      if (!fs.existsSync(file)) return json(404, {});
      return res.writeHead(200, { 'content-type': 'text/javascript' }).end(fs.readFileSync(file));
    }
    if (req.method === 'POST' && url.pathname === '/v2/payment-intents') {
      keys.push(String(req.headers['idempotency-key']));
      return ++creates === 1 ? json(503, { code: 'SERVICE_UNAVAILABLE', message: 'try again' }) : json(201, { id: 'pi_browser', status: 'REQUIRES_CONFIRMATION' });
    }
    if (url.pathname === '/v2/transactions') {
      return url.searchParams.get('startingAfter') === 'trx_2'
        ? json(200, { data: [{ id: 'trx_1' }], hasMore: false })
        : json(200, { data: [{ id: 'trx_3' }, { id: 'trx_2' }], hasMore: true });
    }
    json(404, { code: 'NOT_FOUND', message: 'Route not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

test('the built SDK runs in Chromium: retried create with one key, a paged list, constructEvent', async () => {
  const secretBytes = randomBytes(32);
  const secret = `whsec_${secretBytes.toString('base64')}`;
  const body = JSON.stringify({ id: 'evt_1', type: 'transaction.paid', data: { transaction: { id: 'trx_1' } } });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = `v1,${createHmac('sha256', secretBytes).update(`msg_1.${timestamp}.${body}`).digest('base64')}`;
  const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': timestamp, 'webhook-signature': signature };

  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/`);
    const result = await page.evaluate(
      async ({ module, body, headers, secret }) => {
        const { Svc, constructEvent, WebhookVerificationError } = await import(module);
        const svc = new Svc({ apiKey: 'svc_test_browser', baseUrl: new URL(module).origin, retryBaseDelayMs: 10 });
        const intent = await svc.paymentIntents.create({ amountCents: 100, paymentMethod: 'PIX', referenceId: 'b', buyer: { name: 'A', document: '52998224725' } });
        const ids: string[] = [];
        for await (const trx of svc.transactions.list({ limit: 2 })) ids.push(trx.id);
        const event = await constructEvent(body, new Headers(headers), secret);
        const tampered = await constructEvent(body.replace('trx_1', 'trx_9'), new Headers(headers), secret).catch((e: unknown) => e);
        return { intent: intent.id, ids, event: event.id, refused: tampered instanceof WebhookVerificationError ? tampered.reason : String(tampered) };
      },
      { module: `${origin}/sdk/index.js`, body, headers, secret },
    );
    assert.deepEqual(result, { intent: 'pi_browser', ids: ['trx_3', 'trx_2', 'trx_1'], event: 'evt_1', refused: 'SIGNATURE_MISMATCH' });
    assert.equal(keys.length, 2, 'the 503 was retried');
    assert.equal(keys[0], keys[1], 'with the same Idempotency-Key');
    assert.match(keys[0]!, /^[0-9a-f-]{36}$/);
  } finally {
    await page.close();
  }
});
