/**
 * The sandbox demo checkout (/demo/...): the page and its files under a strict
 * CSP naming the vault origin, its configuration, and the three payment flows
 * it drives as the demo seller (Pix and boleto confirmed at creation and paid
 * through the sandbox; a card tokenized by the in-process vault and
 * confirmed). The routes touch only what the demo created, answer 404 when
 * the deployment has no demo company, and do not exist in production.
 *
 * startTestApp's seller has the demo company's document, so it is the demo company here.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { CompactEncrypt, importJWK } from 'jose';
import { buildApp } from '../../src/app.js';
import { DEMO } from '../../src/modules/demo/index.js';
import { engines } from '../helpers/db.js';
import { startTestApp, type TestApp, productionEnv } from '../helpers/app.js';
import { assertError } from '../helpers/assert.js';
import { pixIntent } from '../helpers/fixtures.js';

type Json = Record<string, any>;

const VAULT_URL = 'https://vault.sandbox.example:8443/cards';
const VAULT_ORIGIN = 'https://vault.sandbox.example:8443';

function demoIntent(t: TestApp, payload: Json) {
  return t.app.inject({ method: 'POST', url: '/demo/intents', payload });
}

async function createdDemoIntent(t: TestApp, payload: Json): Promise<Json> {
  const res = await demoIntent(t, payload);
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(res.headers['cache-control'], 'no-store');
  return res.json();
}

/** What the hosted fields page does in the browser: encrypt the card for the vault key, POST /tokenize. */
async function tokenize(t: TestApp, tokenization: Json, number: string): Promise<string> {
  const jwk = tokenization.encryptionKey;
  const key = await importJWK(jwk, 'RSA-OAEP-256');
  const card = { number, holderName: 'MARIA DA SILVA', expMonth: 12, expYear: 2030, cvv: '123' };
  const encryptedCard = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(card)))
    .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: jwk.kid, ticket: tokenization.ticket })
    .encrypt(key);
  const res = await t.vaultApp.inject({ method: 'POST', url: '/tokenize', payload: { ticket: tokenization.ticket, keyId: jwk.kid, encryptedCard } });
  assert.equal(res.statusCode, 201, res.body);
  const body = res.json();
  assert.match(body.token, /^vtk_/);
  assert.equal(body.last4, number.slice(-4));
  return body.token;
}

async function payCard(t: TestApp, number: string, extra: Json = {}): Promise<{ intent: Json; transaction: Json }> {
  const intent = await createdDemoIntent(t, { paymentMethod: 'CREDIT_CARD', ...extra });
  const token = await tokenize(t, intent.cardTokenization, number);
  const res = await t.app.inject({ method: 'POST', url: `/demo/intents/${intent.id}/confirm`, payload: { token } });
  assert.equal(res.statusCode, 201, res.body);
  return { intent, transaction: res.json() };
}

for (const engine of engines()) {
  describe(`demo checkout on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine, { env: { PUBLIC_VAULT_URL: VAULT_URL } });
    });
    after(async () => {
      await t.close();
    });

    test('GET /demo/checkout serves the page under a strict CSP that names the vault origin', async () => {
      assert.equal(t.companyDocument, DEMO.company.document);
      const res = await t.app.inject({ method: 'GET', url: '/demo/checkout' });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      const csp = String(res.headers['content-security-policy']);
      const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values.join(' ')]));
      assert.equal(directives.get('default-src'), "'self'");
      assert.equal(directives.get('script-src'), `'self' ${VAULT_ORIGIN}`);
      assert.equal(directives.get('frame-src'), VAULT_ORIGIN);
      assert.equal(directives.get('connect-src'), "'self'");
      assert.equal(directives.get('img-src'), "'self' data:");
      assert.equal(directives.get('style-src'), "'self'");
      assert.equal(res.headers['x-content-type-options'], 'nosniff');

      // Nothing the CSP would block: no inline script, style or handler, nothing loaded from elsewhere.
      const html = res.body;
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
      assert.ok(scripts.length >= 1);
      for (const [, attrs, content] of scripts) {
        assert.match(attrs!, /\bsrc="\/demo\/checkout\.js"/);
        assert.equal(content!.trim(), '');
      }
      assert.doesNotMatch(html, /<style\b|\sstyle=|\son[a-z]+=/i);
      assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//i);
      assert.match(html, /href="\/demo\/checkout\.css"/);
    });

    test('the page\'s script and style are served, with their types', async () => {
      const js = await t.app.inject({ method: 'GET', url: '/demo/checkout.js' });
      assert.equal(js.statusCode, 200);
      assert.match(String(js.headers['content-type']), /^application\/javascript/);
      assert.match(js.body, /\/demo\/intents/);
      const css = await t.app.inject({ method: 'GET', url: '/demo/checkout.css' });
      assert.equal(css.statusCode, 200);
      assert.match(String(css.headers['content-type']), /^text\/css/);
      const again = await t.app.inject({ method: 'GET', url: '/demo/checkout.css', headers: { 'if-none-match': String(css.headers.etag) } });
      assert.equal(again.statusCode, 304);
    });

    test('GET /demo/config gives the vault URL and the demo company name, and needs no key', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/demo/config' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { vaultUrl: VAULT_URL, companyName: 'Loja Teste Ltda' });
    });

    test('a Pix demo intent is CONFIRMED at once with a QR code; pay makes it PAID with receivables', async () => {
      const intent = await createdDemoIntent(t, { paymentMethod: 'PIX' });
      assert.equal(intent.status, 'CONFIRMED');
      assert.equal(intent.amountCents, 15_990, 'default amount');
      assert.equal(intent.paymentMethod, 'PIX');
      assert.equal(intent.buyer.document, '52998224725');
      assert.equal(intent.metadata.source, 'demo-checkout');
      const trx = intent.transaction;
      assert.equal(trx.id, intent.transactionId);
      assert.equal(trx.status, 'PENDING');
      assert.equal(trx.sellerId, t.companyId);
      assert.match(trx.paymentDetails.pix.qrCode, /^000201/);
      const png = Buffer.from(trx.paymentDetails.pix.qrCodeImageBase64, 'base64');
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

      const paid = await t.app.inject({ method: 'POST', url: `/demo/transactions/${trx.id}/pay` });
      assert.equal(paid.statusCode, 200, paid.body);
      const view = paid.json();
      assert.equal(view.status, 'PAID');
      assert.ok(view.split.receivables.length >= 1);
      assert.equal(view.split.receivables.reduce((s: number, r: Json) => s + r.amountCents, 0), view.netAmountCents);

      const read = await t.app.inject({ method: 'GET', url: `/demo/transactions/${trx.id}` });
      assert.equal(read.statusCode, 200, read.body);
      assert.equal(read.json().status, 'PAID');
      // The same sale through the API with the demo seller's key.
      assert.equal((await t.call({ method: 'GET', url: `/v2/transactions/${trx.id}` })).json().status, 'PAID');
    });

    test('each address may make DEMO_PER_IP_PER_MINUTE demo requests a minute, then 429 RATE_LIMITED with Retry-After; others go on', async () => {
      const app = await buildApp({ ...t.deps, config: { ...t.deps.config, demoPerIpPerMinute: 3 } }, t.services);
      try {
        const from = (remoteAddress: string, method: 'GET' | 'POST', url: string, payload?: Json) => app.inject({ method, url, remoteAddress, ...(payload ? { payload } : {}) });
        const neighbour = '192.0.2.40';
        assert.equal((await from(neighbour, 'GET', '/demo/config')).statusCode, 200);
        const sale = await from(neighbour, 'POST', '/demo/intents', { paymentMethod: 'PIX' });
        assert.equal(sale.statusCode, 201, sale.body);
        const paid = await from(neighbour, 'POST', `/demo/transactions/${sale.json().transactionId}/pay`);
        assert.equal(paid.statusCode, 200, paid.body);

        const demoSales = () => t.db.db.selectFrom('payment_intents').select('id').where('reference_id', 'like', 'demo-%').execute();
        const sales = (await demoSales()).length;
        for (const [method, url, payload] of [
          ['POST', '/demo/intents', { paymentMethod: 'PIX' }],
          ['GET', '/demo/checkout', undefined],
          ['POST', `/demo/transactions/${sale.json().transactionId}/pay`, undefined],
        ] as const) {
          const refused = await from(neighbour, method, url, payload);
          assertError(refused, 429, 'RATE_LIMITED');
          assert.match(String(refused.headers['retry-after']), /^[1-9]\d*$/, url);
        }
        assert.equal((await demoSales()).length, sales, 'the refused request made no sale');
        assert.equal((await from('192.0.2.41', 'GET', '/demo/config')).statusCode, 200, 'another address is not limited');
      } finally {
        await app.close();
      }
    });

    test('a boleto demo intent carries the digitable line and due date; pay makes it PAID', async () => {
      const intent = await createdDemoIntent(t, { paymentMethod: 'BOLETO', amountCents: 2_500 });
      assert.equal(intent.status, 'CONFIRMED');
      const boleto = intent.transaction.paymentDetails.boleto;
      assert.match(boleto.digitableLine, /^\d{47}$/);
      assert.match(boleto.dueDate, /^\d{4}-\d{2}-\d{2}$/);
      const paid = await t.app.inject({ method: 'POST', url: `/demo/transactions/${intent.transactionId}/pay` });
      assert.equal(paid.statusCode, 200, paid.body);
      assert.equal(paid.json().status, 'PAID');
      assert.equal(paid.json().amountCents, 2_500);
    });

    test('a card demo intent carries cardTokenization; a vault token confirms it PAID', async () => {
      const intent = await createdDemoIntent(t, { paymentMethod: 'CREDIT_CARD', amountCents: 30_000, installments: 3 });
      assert.equal(intent.status, 'REQUIRES_TOKEN');
      assert.equal(intent.installments, 3);
      const tk = intent.cardTokenization;
      assert.equal(tk.vaultUrl, VAULT_URL);
      assert.ok(tk.ticket.length > 20);
      assert.equal(tk.encryptionKey.kty, 'RSA');
      assert.equal(tk.encryptionKey.alg, 'RSA-OAEP-256');

      const token = await tokenize(t, tk, '4111111111111111');
      const res = await t.app.inject({ method: 'POST', url: `/demo/intents/${intent.id}/confirm`, payload: { token } });
      assert.equal(res.statusCode, 201, res.body);
      const trx = res.json();
      assert.equal(trx.status, 'PAID');
      assert.equal(trx.paymentIntentId, intent.id);
      assert.equal(trx.installments, 3);
      assert.deepEqual(trx.paymentDetails.card, { brand: 'visa', last4: '1111' });
      assert.equal(new Set(trx.split.receivables.map((r: Json) => r.installment)).size, 3);

      // The intent is spent: a second confirmation is refused, not charged again.
      assertError(await t.app.inject({ method: 'POST', url: `/demo/intents/${intent.id}/confirm`, payload: { token } }), 409, 'INTENT_ALREADY_PROCESSED');
    });

    test('a refused test card answers 201 with a FAILED transaction and its refusal message; a silent acquirer 502', async () => {
      const { transaction } = await payCard(t, '4111113111110002');
      assert.equal(transaction.status, 'FAILED');
      assert.equal(transaction.paymentDetails.card.refusalCode, 'insufficient_funds');
      assert.match(transaction.paymentDetails.card.refusalMessage, /insufficient funds/);

      const expired = await payCard(t, '4111113111110069');
      assert.equal(expired.transaction.paymentDetails.card.refusalCode, 'expired_card');

      const intent = await createdDemoIntent(t, { paymentMethod: 'CREDIT_CARD' });
      const token = await tokenize(t, intent.cardTokenization, '4111113111110119');
      assertError(await t.app.inject({ method: 'POST', url: `/demo/intents/${intent.id}/confirm`, payload: { token } }), 502, 'PROVIDER_ERROR');
    });

    test('bodies are validated strictly', async () => {
      assertError(await demoIntent(t, { paymentMethod: 'PIX', extra: 1 }), 400, 'VALIDATION_ERROR', 'extra');
      assertError(await demoIntent(t, { paymentMethod: 'DINHEIRO' }), 400, 'VALIDATION_ERROR', 'paymentMethod');
      assertError(await demoIntent(t, {}), 400, 'VALIDATION_ERROR', 'paymentMethod');
      assertError(await demoIntent(t, { paymentMethod: 'PIX', amountCents: 0 }), 400, 'VALIDATION_ERROR', 'amountCents');
      assertError(await demoIntent(t, { paymentMethod: 'PIX', amountCents: 100_000_000 }), 400, 'VALIDATION_ERROR', 'amountCents');
      assertError(await demoIntent(t, { paymentMethod: 'PIX', amountCents: '100' }), 400, 'VALIDATION_ERROR', 'amountCents');
      assertError(await demoIntent(t, { paymentMethod: 'PIX', amountCents: 10.5 }), 400, 'VALIDATION_ERROR', 'amountCents');
      assertError(await demoIntent(t, { paymentMethod: 'CREDIT_CARD', installments: 13 }), 400, 'VALIDATION_ERROR', 'installments');
      assertError(await demoIntent(t, { paymentMethod: 'PIX', installments: 2 }), 400, 'VALIDATION_ERROR', 'installments');
      assertError(await demoIntent(t, { paymentMethod: 'BOLETO', amountCents: 499 }), 400, 'VALIDATION_ERROR', 'amountCents');
      const intent = await createdDemoIntent(t, { paymentMethod: 'CREDIT_CARD' });
      const confirm = (payload: unknown) => t.app.inject({ method: 'POST', url: `/demo/intents/${intent.id}/confirm`, payload: payload as Json });
      assertError(await confirm({}), 400, 'VALIDATION_ERROR', 'token');
      assertError(await confirm({ token: 'tok_123' }), 400, 'VALIDATION_ERROR', 'token');
      assertError(await confirm({ token: `vtk_${'a'.repeat(4100)}` }), 400, 'VALIDATION_ERROR', 'token');
      assertError(await confirm({ token: 'vtk_abc', more: true }), 400, 'VALIDATION_ERROR', 'more');
    });

    test('only what the demo created is reachable: other sales of the demo seller are 404', async () => {
      const res = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ confirm: true }) });
      assert.equal(res.statusCode, 201, res.body);
      const own = res.json();
      assertError(await t.app.inject({ method: 'GET', url: `/demo/transactions/${own.transactionId}` }), 404, 'NOT_FOUND');
      assertError(await t.app.inject({ method: 'POST', url: `/demo/transactions/${own.transactionId}/pay` }), 404, 'NOT_FOUND');
      assert.equal((await t.call({ method: 'GET', url: `/v2/transactions/${own.transactionId}` })).json().status, 'PENDING', 'not paid');

      const twoStep = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent() });
      const pending = twoStep.json();
      assertError(await t.app.inject({ method: 'POST', url: `/demo/intents/${pending.id}/confirm`, payload: { token: 'vtk_x' } }), 404, 'NOT_FOUND');
      assert.equal((await t.call({ method: 'GET', url: `/v2/payment-intents/${pending.id}` })).json().status, 'REQUIRES_CONFIRMATION');

      assertError(await t.app.inject({ method: 'GET', url: '/demo/transactions/trx_doesnotexist' }), 404, 'NOT_FOUND');
      assertError(await t.app.inject({ method: 'POST', url: '/demo/intents/pi_doesnotexist/confirm', payload: { token: 'vtk_x' } }), 404, 'NOT_FOUND');
    });

    test('the demo routes are not in the API reference', async () => {
      const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      assert.deepEqual(Object.keys(spec.paths).filter((p) => p.startsWith('/demo')), []);
    });
  });

  describe(`demo checkout without a demo company on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
      // An operator-configured deployment: its only company is not the demo one.
      await t.db.db.updateTable('companies').set({ document: '11444777000161' }).where('id', '=', t.companyId).execute();
    });
    after(async () => {
      await t.close();
    });

    test('every demo route answers 404 NOT_FOUND with the error body', async () => {
      for (const [method, url] of [
        ['GET', '/demo/checkout'],
        ['GET', '/demo/checkout.js'],
        ['GET', '/demo/config'],
        ['POST', '/demo/intents'],
        ['GET', '/demo/transactions/trx_x'],
      ] as const) {
        const res = await t.app.inject({ method, url, ...(method === 'POST' ? { payload: { paymentMethod: 'PIX' } } : {}) });
        assertError(res, 404, 'NOT_FOUND');
        assert.match(res.json().message, /demo company/, url);
      }
    });
  });

  describe(`demo checkout with SVC_ENV=production on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine, { env: productionEnv() });
    });
    after(async () => {
      await t.close();
    });

    test('the demo routes do not exist (404)', async () => {
      for (const [method, url] of [
        ['GET', '/demo/checkout'],
        ['GET', '/demo/checkout.js'],
        ['GET', '/demo/checkout.css'],
        ['GET', '/demo/config'],
        ['POST', '/demo/intents'],
        ['POST', `/demo/intents/pi_${randomUUID()}/confirm`],
        ['POST', '/demo/transactions/trx_x/pay'],
        ['GET', '/demo/transactions/trx_x'],
      ] as const) {
        const res = await t.app.inject({ method, url, ...(method === 'POST' ? { payload: { paymentMethod: 'PIX' } } : {}) });
        assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
        assert.equal(res.json().message, 'No such route');
      }
    });
  });
}
