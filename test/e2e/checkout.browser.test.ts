/**
 * E2E checkout in real Chromium against the real service: one `svc serve`
 * (API + vault + worker, sandbox; compiled dist/, so `npm run build` first)
 * and a tiny SELLER written here, on another origin:
 *
 *   seller  http://127.0.0.1:<port>     page + backend (holds the API key)
 *   vault   http://localhost:<vaultPort> sdk.js, hosted fields, /tokenize
 *   API     http://127.0.0.1:<port>      reached only by the seller backend
 *
 * The seller page (strict CSP: scripts from itself and the vault, frames from
 * the vault only) asks its backend for a checkout; the backend creates a card
 * intent with the demo key and hands the page only `intentId` and
 * `cardTokenization`. The page loads `${vaultUrl}/sdk.js`, mounts SvcVault
 * with those values, records every callback, and posts the token to its
 * backend, which confirms the intent (Idempotency-Key) and answers the
 * transaction. The browser never sees the API key, and no request it makes
 * carries the card number in clear.
 *
 * Cases: (a) type the card into the iframe, press the frame's button →
 * onToken {token, brand 'visa', last4 '1111'} → confirm → PAID (read back
 * with GET /v2/transactions/{id}); (b) onChange / onFocus / onBlur fire for
 * every field and carry no digit at all (so no part of the number and no CVV);
 * (c) locale 'en' → English labels; (d) hideSubmitButton: no visible frame
 * button, the page's own button calls handle.tokenize() → token → PAID;
 * (e) an already-expired ticket (signed here with the INTERNAL_KEY the server
 * was started with, same claims as src/modules/vault/tickets.ts) →
 * onError TICKET_EXPIRED; (f) a refused card (4111 1131 1111 0002) → the
 * confirm answers FAILED with refusalCode insufficient_funds.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { freePort, idemKey, startServer, type TestServer } from '../helpers/server.js';
import { CARD_BUYER } from '../helpers/fixtures.js';

type Json = Record<string, any>;

const INTERNAL_KEY = randomBytes(32);
const APPROVED = { number: '4111111111111111', expiry: '1230', cvv: '123', holder: 'Maria da Silva' };
const REFUSED = { number: '4111113111110002', expiry: '1230', cvv: '123', holder: 'Joao Pereira' };

describe('e2e checkout: seller page + real vault + real API in Chromium', () => {
  let server: TestServer;
  let seller: http.Server;
  let browser: Browser;
  let vaultUrl = '';
  let sellerUrl = '';
  /** What the seller backend received from its page, and the API answers it got. */
  const sellerInbox: Json[] = [];

  async function readJson(req: http.IncomingMessage): Promise<Json> {
    let text = '';
    for await (const chunk of req) text += chunk;
    return text ? (JSON.parse(text) as Json) : {};
  }

  /** The seller backend's calls to the API (the only holder of the key). */
  async function sellerApi(pathname: string, body: unknown, key?: string): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${server.url}${pathname}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  /** A ticket like the service's for the same intent and company, but already expired. */
  async function expiredTicket(realTicket: string): Promise<string> {
    const header = decodeProtectedHeader(realTicket);
    const claims = decodeJwt(realTicket);
    assert.deepEqual(header, { alg: 'HS256', typ: 'svc-ticket' }, 'tickets are HS256 JWTs as in tickets.ts');
    assert.deepEqual(claims.aud, 'svc-vault/tokenize');
    return new SignJWT({ cmp: claims.cmp })
      .setProtectedHeader({ alg: 'HS256', typ: 'svc-ticket' })
      .setSubject(claims.sub!)
      .setAudience('svc-vault/tokenize')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(INTERNAL_KEY);
  }

  const sellerScript = `
    (function () {
      var events = globalThis.__events = [];
      function log(type) { return function (e) { events.push({ type: type, data: e ? JSON.parse(JSON.stringify(e)) : null }); }; }
      var q = new URLSearchParams(location.search);
      var hide = q.get('hide') === '1';
      function post(path, body) {
        return fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
          .then(function (r) { return r.json(); });
      }
      var intentId;
      function pay(result) {
        return post('/api/pay', { intentId: intentId, token: result.token }).then(log('confirmed'));
      }
      post('/api/checkout', { expiredTicket: q.get('expired') === '1' }).then(function (r) {
        intentId = r.intentId;
        events.push({ type: 'intent', data: { intentId: r.intentId } });
        var t = r.cardTokenization;
        var handle = globalThis.__handle = SvcVault.mount('#card', {
          vaultUrl: t.vaultUrl,
          ticket: t.ticket,
          encryptionKey: t.encryptionKey,
          locale: q.get('locale') || undefined,
          hideSubmitButton: hide,
          onReady: log('ready'), onChange: log('change'), onFocus: log('focus'), onBlur: log('blur'),
          onToken: function (result) {
            log('token')(result);
            if (!hide) pay(result);
          },
          onError: function (e) { events.push({ type: 'error', data: { code: e.code, message: e.message, details: e.details || null } }); }
        });
        var button = document.getElementById('pay');
        if (button) button.addEventListener('click', function () {
          handle.tokenize().then(pay, function () { /* reported through onError */ });
        });
      });
    })();`;

  before(async () => {
    const vaultPort = await freePort();
    vaultUrl = `http://localhost:${vaultPort}`;
    server = await startServer({
      env: {
        VAULT_PORT: String(vaultPort),
        PUBLIC_VAULT_URL: vaultUrl,
        INTERNAL_KEY: INTERNAL_KEY.toString('base64'),
        RATE_LIMIT_PER_SECOND: '10000',
        VAULT_ATTEMPTS_PER_IP_PER_MINUTE: '1000',
      },
    });

    seller = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://seller');
      const send = (status: number, type: string, body: string) => {
        res.writeHead(status, { 'content-type': type });
        res.end(body);
      };
      (async () => {
        if (req.method === 'GET' && url.pathname === '/seller.js') return send(200, 'text/javascript', sellerScript);
        if (req.method === 'POST' && url.pathname === '/api/checkout') {
          const input = await readJson(req);
          sellerInbox.push({ route: 'checkout', input });
          const created = await sellerApi('/v2/payment-intents', {
            amountCents: 15_000, paymentMethod: 'CREDIT_CARD', referenceId: `order-${sellerInbox.length}`, buyer: CARD_BUYER,
          }, idemKey('seller-create'));
          assert.equal(created.status, 201, JSON.stringify(created.body));
          const t = created.body.cardTokenization as Json;
          const ticket = input.expiredTicket ? await expiredTicket(t.ticket) : t.ticket;
          return send(200, 'application/json', JSON.stringify({ intentId: created.body.id, cardTokenization: { ...t, ticket } }));
        }
        if (req.method === 'POST' && url.pathname === '/api/pay') {
          const input = await readJson(req);
          const confirmed = await sellerApi(`/v2/payment-intents/${input.intentId}/confirm`, { token: input.token }, idemKey(`pay-${input.intentId}`));
          sellerInbox.push({ route: 'pay', input, confirmed });
          return send(200, 'application/json', JSON.stringify({ status: confirmed.status, transaction: confirmed.body }));
        }
        if (req.method === 'GET' && url.pathname === '/') {
          const vault = new URL(vaultUrl).origin;
          res.setHeader('content-security-policy',
            `default-src 'none'; script-src 'self' ${vault}; frame-src ${vault}; connect-src 'self'; style-src 'self'`);
          const button = url.searchParams.get('hide') === '1' ? '<button id="pay" type="button">Pagar</button>' : '';
          return send(200, 'text/html; charset=utf-8', `<!doctype html><html><head><meta charset="utf-8"><title>Loja</title></head>
            <body><h1>Loja</h1><div id="card"></div>${button}
            <script src="${vaultUrl}/sdk.js"></script><script src="/seller.js"></script></body></html>`);
        }
        send(404, 'text/plain', 'not found');
      })().catch((err) => send(500, 'text/plain', String(err)));
    });
    await new Promise<void>((resolve) => seller.listen(0, '127.0.0.1', resolve));
    sellerUrl = `http://127.0.0.1:${(seller.address() as AddressInfo).port}`;
    assert.notEqual(new URL(sellerUrl).origin, new URL(vaultUrl).origin, 'seller and vault are different origins');

    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (seller ? seller.close(() => resolve()) : resolve()));
    if (server) {
      const exit = await server.stop();
      assert.deepEqual(exit, { code: 0, signal: null });
    }
  });

  interface Checkout {
    page: Page;
    frame: FrameLocator;
    intentId: string;
    events(): Promise<Array<{ type: string; data: any }>>;
    waitFor(type: string): Promise<void>;
    /** Console errors, page errors and CSP reports of the page and its frame. */
    problems: string[];
    /** Every request the browser made: URL, headers and body. */
    requests: Array<{ url: string; headers: Record<string, string>; body: string }>;
  }

  async function openCheckout(query = ''): Promise<Checkout> {
    const page = await browser.newPage();
    const problems: string[] = [];
    const requests: Checkout['requests'] = [];
    page.on('console', (m) => { if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('request', (r) => requests.push({ url: r.url(), headers: r.headers(), body: r.postData() ?? '' }));
    await page.goto(`${sellerUrl}/${query}`);
    const events = () => page.evaluate(() => (globalThis as any).__events as Array<{ type: string; data: any }>);
    const waitFor = async (type: string) => {
      await page.waitForFunction((t) => ((globalThis as any).__events as Array<{ type: string }>).some((e) => e.type === t), type, { timeout: 20_000 });
    };
    await waitFor('ready');
    const intentId = (await events()).find((e) => e.type === 'intent')!.data.intentId as string;
    assert.match(intentId, /^pi_/);
    return { page, frame: page.frameLocator('iframe'), intentId, events, waitFor, problems, requests };
  }

  async function typeCard(frame: FrameLocator, card: typeof APPROVED): Promise<void> {
    const number = frame.locator('#number');
    await number.click();
    await number.pressSequentially(card.number);
    assert.equal(await number.inputValue(), card.number.replace(/(\d{4})(?=\d)/g, '$1 '));
    await frame.locator('#expiry').pressSequentially(card.expiry);
    assert.equal(await frame.locator('#expiry').inputValue(), `${card.expiry.slice(0, 2)}/${card.expiry.slice(2)}`);
    await frame.locator('#cvv').pressSequentially(card.cvv);
    await frame.locator('#holderName').pressSequentially(card.holder);
    await frame.locator('#holderName').blur();
  }

  async function apiGet(pathname: string): Promise<Json> {
    const res = await server.api(pathname);
    assert.equal(res.status, 200, pathname);
    return (await res.json()) as Json;
  }

  /** What the browser sent never holds the API key nor the card in clear; nothing went to the API port. */
  function assertCleanTraffic(c: Checkout, card: typeof APPROVED): void {
    const apiOrigin = new URL(server.url).origin;
    for (const r of c.requests) {
      const text = `${r.url} ${JSON.stringify(r.headers)} ${r.body}`;
      assert.ok(!text.includes(server.key), `the API key reached the browser: ${r.url}`);
      assert.ok(!text.includes(card.number), `card number in clear in ${r.url}`);
      assert.notEqual(new URL(r.url).origin, apiOrigin, 'the browser never calls the API');
    }
    for (const entry of sellerInbox) {
      const text = JSON.stringify(entry.input);
      assert.ok(!text.includes(card.number) && !/"cvv"/.test(text), 'the seller backend never receives card data');
    }
  }

  test('(a)+(b) type a card, frame button → onToken → seller confirms → PAID; callbacks carry no digits', async () => {
    const c = await openCheckout();
    const { frame } = c;
    assert.equal(await frame.locator('#number-label').textContent(), 'Número do cartão', 'pt-BR by default');
    assert.equal(await frame.locator('#submit').isVisible(), true);
    await typeCard(frame, APPROVED);
    assert.equal(await frame.locator('#number-brand').textContent(), 'Visa');

    await frame.locator('#submit').click();
    await c.waitFor('token');
    const token = (await c.events()).find((e) => e.type === 'token')!.data;
    assert.deepEqual(Object.keys(token).sort(), ['brand', 'last4', 'token']);
    assert.match(token.token, /^vtk_/);
    assert.equal(token.brand, 'visa');
    assert.equal(token.last4, '1111');

    await c.waitFor('confirmed');
    const confirmed = (await c.events()).find((e) => e.type === 'confirmed')!.data;
    assert.equal(confirmed.status, 201, JSON.stringify(confirmed));
    assert.equal(confirmed.transaction.status, 'PAID');
    assert.equal(confirmed.transaction.paymentIntentId, c.intentId);
    const trx = await apiGet(`/v2/transactions/${confirmed.transaction.id}`);
    assert.equal(trx.status, 'PAID');
    assert.equal(trx.amountCents, 15_000);
    assert.deepEqual(trx.paymentDetails.card, { brand: 'visa', last4: '1111' });
    const intent = await apiGet(`/v2/payment-intents/${c.intentId}`);
    assert.equal(intent.status, 'CONFIRMED');
    assert.equal(intent.transactionId, trx.id);

    // The frame dropped the digits once saved.
    assert.equal(await frame.locator('#number').inputValue(), '•••• 1111');
    assert.equal(await frame.locator('#cvv').inputValue(), '');
    assert.equal(await frame.locator('#status').textContent(), 'Dados do cartão recebidos');

    // (b) onChange / onFocus / onBlur fired for every field and carry no digit at all:
    // so no run of the card number (of any length) and no CVV.
    const events = await c.events();
    const ui = events.filter((e) => e.type === 'change' || e.type === 'focus' || e.type === 'blur');
    for (const type of ['change', 'focus', 'blur']) {
      assert.deepEqual(
        [...new Set(ui.filter((e) => e.type === type).map((e) => e.data.field))].sort(),
        ['cvv', 'expiry', 'holderName', 'number'],
        `${type} fired for every field`,
      );
    }
    for (const e of ui.filter((x) => x.type === 'change')) {
      assert.deepEqual(Object.keys(e.data).sort(), ['brand', 'complete', 'empty', 'field', 'formComplete', 'valid']);
    }
    for (const e of ui.filter((x) => x.type !== 'change')) assert.deepEqual(Object.keys(e.data), ['field']);
    const uiJson = JSON.stringify(ui);
    assert.doesNotMatch(uiJson, /\d/, 'no digit in any onChange / onFocus / onBlur event');
    for (let i = 0; i + 4 <= APPROVED.number.length; i++) assert.ok(!uiJson.includes(APPROVED.number.slice(i, i + 4)));
    assert.ok(!uiJson.includes(APPROVED.cvv));
    assert.ok(!JSON.stringify(events).includes(APPROVED.number), 'nothing the page got holds the number');
    const lastChange = ui.filter((e) => e.type === 'change').at(-1)!.data;
    assert.equal(lastChange.formComplete, true);
    assert.equal(lastChange.brand, 'visa');

    assertCleanTraffic(c, APPROVED);
    const tokenize = c.requests.filter((r) => r.url === `${vaultUrl}/tokenize`);
    assert.equal(tokenize.length, 1, 'one POST /tokenize, from the frame');
    assert.deepEqual(Object.keys(JSON.parse(tokenize[0]!.body)).sort(), ['encryptedCard', 'keyId', 'ticket']);
    assert.deepEqual(c.problems, [], 'no CSP violation or script error');
    await c.page.close();
  });

  test('(c) locale en shows English labels in the frame', async () => {
    const c = await openCheckout('?locale=en');
    const f = c.frame;
    assert.equal(await f.locator('#number-label').textContent(), 'Card number');
    assert.equal(await f.locator('#expiry-label').textContent(), 'Expiry date');
    assert.equal(await f.locator('#cvv-label').textContent(), 'Security code (CVV)');
    assert.equal(await f.locator('#holderName-label').textContent(), 'Cardholder name');
    assert.equal(await f.locator('#submit').textContent(), 'Continue');
    assert.equal(await f.locator('#expiry').getAttribute('placeholder'), 'MM/YY');
    assert.equal(await f.locator('html').getAttribute('lang'), 'en');
    assert.equal(await c.page.locator('iframe').getAttribute('title'), 'Card details');
    // An error text in English too.
    await f.locator('#submit').click();
    await c.waitFor('error');
    assert.equal((await c.events()).find((e) => e.type === 'error')!.data.code, 'VALIDATION_ERROR');
    assert.equal(await f.locator('#number-error').textContent(), 'Enter the card number.');
    assert.deepEqual(c.problems, []);
    await c.page.close();
  });

  test('(d) hideSubmitButton: no frame button; the page\'s own button calls tokenize() → token → PAID', async () => {
    const c = await openCheckout('?hide=1');
    assert.equal(await c.frame.locator('#submit').isVisible(), false, 'the frame shows no submit button');
    await typeCard(c.frame, APPROVED);
    // Enter inside the frame does not submit when the seller owns the button.
    await c.frame.locator('#holderName').press('Enter');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await c.events()).some((e) => e.type === 'token'), false, 'Enter did not submit');

    await c.page.locator('#pay').click();
    await c.waitFor('confirmed');
    const events = await c.events();
    const token = events.find((e) => e.type === 'token')!.data;
    assert.match(token.token, /^vtk_/);
    assert.equal(token.brand, 'visa');
    assert.equal(token.last4, '1111');
    const confirmed = events.find((e) => e.type === 'confirmed')!.data;
    assert.equal(confirmed.status, 201, JSON.stringify(confirmed));
    assert.equal(confirmed.transaction.status, 'PAID');
    assert.equal((await apiGet(`/v2/transactions/${confirmed.transaction.id}`)).status, 'PAID');
    assertCleanTraffic(c, APPROVED);
    assert.deepEqual(c.problems, []);
    await c.page.close();
  });

  test('(e) an expired ticket: onError TICKET_EXPIRED, the form locks, the intent still waits for a token', async () => {
    const c = await openCheckout('?expired=1');
    await typeCard(c.frame, APPROVED);
    await c.frame.locator('#submit').click();
    await c.waitFor('error');
    const events = await c.events();
    assert.equal(events.find((e) => e.type === 'error')!.data.code, 'TICKET_EXPIRED');
    assert.equal(events.some((e) => e.type === 'token'), false);
    assert.equal(await c.frame.locator('#status').textContent(), 'Sessão expirada. Recarregue a página para tentar de novo.');
    assert.equal(await c.frame.locator('#submit').isDisabled(), true);
    const tokenize = c.requests.filter((r) => r.url === `${vaultUrl}/tokenize`);
    assert.equal(tokenize.length, 1, 'the card went to the vault, which refused the ticket');
    assert.equal((await apiGet(`/v2/payment-intents/${c.intentId}`)).status, 'REQUIRES_TOKEN');
    assertCleanTraffic(c, APPROVED);
    // The only console error is the browser's note about the 401 from /tokenize.
    assert.deepEqual(c.problems.filter((p) => !/status of 401/.test(p)), []);
    await c.page.close();
  });

  test('(f) a refused card: token, then the confirm answers FAILED with insufficient_funds', async () => {
    const c = await openCheckout();
    await typeCard(c.frame, REFUSED);
    await c.frame.locator('#submit').click();
    await c.waitFor('confirmed');
    const events = await c.events();
    const token = events.find((e) => e.type === 'token')!.data;
    assert.equal(token.brand, 'visa');
    assert.equal(token.last4, '0002');
    const confirmed = events.find((e) => e.type === 'confirmed')!.data;
    assert.equal(confirmed.status, 201, 'a refusal is not an HTTP error');
    assert.equal(confirmed.transaction.status, 'FAILED');
    assert.equal(confirmed.transaction.paymentDetails.card.refusalCode, 'insufficient_funds');
    assert.equal(typeof confirmed.transaction.paymentDetails.card.refusalMessage, 'string');
    const trx = await apiGet(`/v2/transactions/${confirmed.transaction.id}`);
    assert.equal(trx.status, 'FAILED');
    assert.equal(trx.paymentDetails.card.refusalCode, 'insufficient_funds');
    assert.equal((await apiGet(`/v2/payment-intents/${c.intentId}`)).status, 'CONFIRMED');
    assertCleanTraffic(c, REFUSED);
    assert.deepEqual(c.problems, []);
    await c.page.close();
  });
});
