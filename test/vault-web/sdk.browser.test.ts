/**
 * web/vault/sdk.js and the hosted fields in real Chromium (Debian's package,
 * driven by playwright-core). scripts/test.mjs runs *.browser.test.ts files
 * only when Chromium is present (in CI its absence is a failure).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { WEB_ROOT } from '../../src/http/web-assets.js';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { screenshotsFolder } from '../helpers/screenshots.js';

type Json = Record<string, any>;

// ---------------------------------------------------------------------------
// In a real browser: the SDK on a shop page (its own origin and a strict CSP),
// the hosted fields from a stub vault serving the built dist/web/vault/ with the vault's CSP,
// /keys and a /tokenize that opens the JWE with jose. Skipped without Chromium.
// ---------------------------------------------------------------------------

const HOSTED_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
  + "frame-ancestors *; base-uri 'none'; form-action 'none'";

describe('in Chromium', () => {
  let vault: Server;
  let shop: Server;
  let browser: Browser;
  let vaultUrl = '';
  let shopUrl = '';
  const received: Array<{ body: Json; card: Json | null; header: Json | null }> = [];
  let keyRequests = 0;

  async function listen(server: Server): Promise<number> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    let text = '';
    for await (const chunk of req) text += chunk;
    return text;
  }

  before(async () => {
    const http = await import('node:http');
    const { generateKeyPair, exportJWK, compactDecrypt } = await import('jose');
    const { publicKey, privateKey } = await generateKeyPair('RSA-OAEP-256', { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: 'vk_current', alg: 'RSA-OAEP-256', use: 'enc' };
    const old = await generateKeyPair('RSA-OAEP-256', { extractable: true });
    const oldJwk = { ...(await exportJWK(old.publicKey)), kid: 'vk_old', alg: 'RSA-OAEP-256', use: 'enc' };
    const keyEntry = (k: Json, current: boolean) => ({ keyId: k.kid, alg: 'RSA-OAEP-256', enc: 'A256GCM', current, jwk: k });
    const files: Record<string, [string, string]> = {
      '/sdk.js': ['sdk.js', 'text/javascript'],
      '/hosted-fields': ['hosted-fields.html', 'text/html; charset=utf-8'],
      '/hosted-fields.js': ['hosted-fields.js', 'text/javascript'],
      '/hosted-fields.css': ['hosted-fields.css', 'text/css'],
    };

    vault = http.createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const file = files[url.pathname];
      if (req.method === 'GET' && file) {
        res.setHeader('content-type', file[1]);
        if (url.pathname === '/hosted-fields') res.setHeader('content-security-policy', HOSTED_CSP);
        res.end(fs.readFileSync(path.join(WEB_ROOT, 'vault', file[0])));
      } else if (req.method === 'GET' && url.pathname === '/keys') {
        keyRequests++;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ keys: [keyEntry(jwk, true), keyEntry(oldJwk, false)] }));
      } else if (req.method === 'POST' && url.pathname === '/tokenize') {
        const body = JSON.parse(await readBody(req));
        let card: Json | null = null;
        let header: Json | null = null;
        try {
          const opened = await compactDecrypt(body.encryptedCard, privateKey);
          card = JSON.parse(new TextDecoder().decode(opened.plaintext));
          header = opened.protectedHeader;
        } catch { /* recorded as null */ }
        received.push({ body, card, header });
        res.setHeader('content-type', 'application/json');
        if (body.ticket === 'tkt_expired') {
          res.statusCode = 401;
          res.end(JSON.stringify({ code: 'TICKET_EXPIRED', message: 'The ticket has expired' }));
        } else if (!card) {
          res.statusCode = 400;
          res.end(JSON.stringify({ code: 'VALIDATION_ERROR', message: 'bad JWE' }));
        } else {
          res.statusCode = 201;
          res.end(JSON.stringify({ token: `vtk_${received.length}`, brand: 'visa', last4: card.number.slice(-4), expMonth: card.expMonth, expYear: card.expYear }));
        }
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
    // The vault answers on "localhost", the shop on "127.0.0.1": two origins.
    vaultUrl = `http://localhost:${await listen(vault)}`;

    const shopScript = `
      var events = globalThis.__events = [];
      var q = new URLSearchParams(location.search);
      function log(type) { return function (e) { events.push({ type: type, data: e ? JSON.parse(JSON.stringify(e)) : null }); }; }
      globalThis.__handle = SvcVault.mount('#card', {
        vaultUrl: ${JSON.stringify(vaultUrl)},
        ticket: q.get('ticket') || 'tkt_ok',
        encryptionKey: Object.assign(${JSON.stringify(jwk)}, q.get('kid') ? { kid: q.get('kid') } : {}),
        locale: q.get('locale') || undefined,
        hideSubmitButton: q.get('hide') === '1',
        submitLabel: q.get('label') || undefined,
        style: { fontFamily: 'DejaVu Sans, sans-serif', fontSize: '15px', theme: q.get('theme') || 'light' },
        onReady: log('ready'), onChange: log('change'), onFocus: log('focus'), onBlur: log('blur'),
        onToken: log('token'),
        onError: function (e) { events.push({ type: 'error', data: { code: e.code, message: e.message, details: e.details } }); }
      });`;
    shop = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/shop.js') {
        res.setHeader('content-type', 'text/javascript');
        res.end(shopScript);
        return;
      }
      // A seller with a strict policy: the SDK must work without inline style or script.
      res.setHeader('content-security-policy', `default-src 'none'; script-src 'self' ${vaultUrl}; frame-src ${vaultUrl}; style-src 'self'`);
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><html><body><h1>Shop</h1><div id="card"></div>
        <script src="${vaultUrl}/sdk.js"></script><script src="/shop.js"></script></body></html>`);
    });
    shopUrl = `http://127.0.0.1:${await listen(shop)}`;
    browser = await launchChromium();
  });

  async function openShop(query = '') {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(`${shopUrl}/${query}`);
    const events = () => page.evaluate(() => (globalThis as any).__events as Array<{ type: string; data: any }>);
    const waitFor = (type: string) =>
      page.waitForFunction((t) => ((globalThis as any).__events as Array<{ type: string }>).some((e) => e.type === t), type);
    await waitFor('ready');
    const frame = page.frameLocator('iframe');
    return { page, frame, events, waitFor, problems };
  }

  test('types, validates, encrypts and hands back only the token', async () => {
    const { page, frame, events, waitFor, problems } = await openShop();
    const before = received.length;
    const number = frame.locator('#number');
    assert.equal(await frame.locator('#submit').textContent(), 'Continuar', 'what comes next in a payment, not "save"');

    // Submitting an empty form: errors under the fields, nothing sent to the vault.
    await frame.locator('#submit').click();
    await waitFor('error');
    assert.equal((await events()).find((e) => e.type === 'error')!.data.code, 'VALIDATION_ERROR');
    assert.equal(await frame.locator('#number-error').textContent(), 'Informe o número do cartão.');
    assert.equal(received.length, before, 'invalid data never reaches /tokenize');

    await number.click();
    await number.pressSequentially('4111111111111111');
    assert.equal(await number.inputValue(), '4111 1111 1111 1111');
    assert.equal(await frame.locator('#number-brand').textContent(), 'Visa');
    // A valid 16-digit number moves the cursor to the expiry.
    assert.equal(await frame.locator('#expiry').evaluate((el) => el === (el.ownerDocument as any).activeElement), true);
    await frame.locator('#expiry').pressSequentially('1230');
    assert.equal(await frame.locator('#expiry').inputValue(), '12/30');
    await frame.locator('#cvv').pressSequentially('123');
    await frame.locator('#holderName').pressSequentially('Maria da Silva');

    const changes = (await events()).filter((e) => e.type === 'change');
    assert.ok(changes.length > 0);
    assert.deepEqual(changes.at(-1)!.data, { field: 'holderName', empty: false, complete: true, valid: true, brand: 'visa', formComplete: true });
    const everything = JSON.stringify(await events());
    assert.doesNotMatch(everything, /4111|1111|Maria|"123"/, 'no card data in any event');

    await frame.locator('#submit').click();
    await waitFor('token');
    const token = (await events()).find((e) => e.type === 'token')!.data;
    assert.deepEqual(token, { token: `vtk_${received.length}`, brand: 'visa', last4: '1111' });

    const sent = received.at(-1)!;
    assert.deepEqual(Object.keys(sent.body).sort(), ['encryptedCard', 'keyId', 'ticket']);
    assert.equal(sent.body.ticket, 'tkt_ok');
    assert.equal(sent.body.keyId, 'vk_current');
    assert.deepEqual(sent.header, { alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: 'vk_current', ticket: 'tkt_ok' }, 'the JWE is bound to its ticket');
    assert.deepEqual(sent.card, { number: '4111111111111111', holderName: 'Maria da Silva', expMonth: 12, expYear: 2030, cvv: '123' });

    // Saved: the digits are gone from the page, the fields are read-only.
    assert.equal(await frame.locator('#status').textContent(), 'Dados do cartão recebidos');
    assert.equal(await number.inputValue(), '•••• 1111');
    assert.equal(await frame.locator('#cvv').inputValue(), '');
    assert.equal(await number.evaluate((el: any) => el.readOnly), true);
    // The frame sized itself to its content.
    const height = await page.locator('iframe').evaluate((el: any) => el.style.height);
    assert.match(height, /^\d+px$/);
    assert.notEqual(height, '260px');
    assert.deepEqual(problems, [], 'no CSP violation or script error');
    await page.screenshot({ path: path.join(screenshotsFolder('svc-vault-screenshots'), 'saved.png') });
    await page.close();
  });

  test('with the seller\'s own button: tokenize() resolves, Elo, Amex and Aura are recognised, English labels', async () => {
    const { page, frame, events, problems } = await openShop('?hide=1&locale=en&theme=dark');
    assert.equal(await frame.locator('#submit').isVisible(), false);
    assert.equal(await frame.locator('#number-label').textContent(), 'Card number');

    const number = frame.locator('#number');
    await number.click();
    await number.pressSequentially('378282246310005');
    assert.equal(await number.inputValue(), '3782 822463 10005');
    assert.equal(await frame.locator('#number-brand').textContent(), 'American Express');
    await number.fill('');
    await number.pressSequentially('5067');
    assert.equal(await frame.locator('#number-brand').textContent(), '');
    await number.pressSequentially('000000000009');
    assert.equal(await frame.locator('#number-brand').textContent(), 'Elo');
    assert.equal(await frame.locator('#number-error').textContent(), '');
    // Aura: a brand of the server's table (src/modules/vault/card-brands.ts), bundled into the page.
    await number.fill('');
    await number.pressSequentially('5000000000000009');
    assert.equal(await number.inputValue(), '5000 0000 0000 0009');
    assert.equal(await frame.locator('#number-brand').textContent(), 'Aura');
    assert.equal(await frame.locator('#number-error').textContent(), '');

    // Backspace right after a group space deletes the digit before it.
    await number.fill('');
    await number.pressSequentially('42424');
    await number.press('ArrowLeft');
    await number.press('Backspace');
    assert.equal(await number.inputValue(), '4244');
    assert.equal(await number.evaluate((el: any) => el.selectionStart), 3, 'caret stays where the digit was');
    await number.press('Backspace');
    assert.equal(await number.inputValue(), '424');

    await number.fill('');
    await number.pressSequentially('4242424242424242');
    await frame.locator('#expiry').pressSequentially('0');
    await frame.locator('#expiry').pressSequentially('1/20'); // long past
    await frame.locator('#cvv').click();
    assert.equal(await frame.locator('#expiry-error').textContent(), 'The card has expired.');

    const rejected = await page.evaluate(() => (globalThis as any).__handle.tokenize().then(
      () => null, (e: any) => ({ code: e.code, fields: (e.details || []).map((d: any) => d.field) })));
    assert.deepEqual(rejected, { code: 'VALIDATION_ERROR', fields: ['expiry', 'cvv', 'holderName'] });

    await frame.locator('#expiry').fill('');
    await frame.locator('#expiry').pressSequentially('1131');
    await frame.locator('#cvv').pressSequentially('321');
    await frame.locator('#holderName').pressSequentially('John Smith');
    const before = received.length;
    const result = await page.evaluate(() => (globalThis as any).__handle.tokenize());
    assert.deepEqual(result, { token: `vtk_${before + 1}`, brand: 'visa', last4: '4242' });
    assert.deepEqual(received.at(-1)!.card, { number: '4242424242424242', holderName: 'John Smith', expMonth: 11, expYear: 2031, cvv: '321' });
    // Again: the same token, no second call to the vault.
    assert.deepEqual(await page.evaluate(() => (globalThis as any).__handle.tokenize()), result);
    assert.equal(received.length, before + 1);
    assert.equal((await events()).filter((e) => e.type === 'token').length, 2);
    assert.deepEqual(problems, []);
    await page.screenshot({ path: path.join(screenshotsFolder('svc-vault-screenshots'), 'dark.png') });

    await page.evaluate(() => (globalThis as any).__handle.unmount());
    assert.equal(await page.locator('iframe').count(), 0);
    await page.close();
  });

  test('the seller\'s submitLabel shows as text; an expired ticket reports TICKET_EXPIRED and locks the form', async () => {
    const label = '<b>Pagar</b> R$ 10 $&';
    const { page, frame, events, waitFor } = await openShop(`?ticket=tkt_expired&label=${encodeURIComponent(label)}`);
    assert.equal(await frame.locator('#submit').textContent(), label);
    assert.equal(await frame.locator('#submit b').count(), 0, 'never markup');
    await frame.locator('#number').click();
    await frame.locator('#number').pressSequentially('5555555555554444');
    await frame.locator('#expiry').pressSequentially('1230');
    await frame.locator('#cvv').pressSequentially('123');
    await frame.locator('#holderName').pressSequentially('Ana Souza');
    await frame.locator('#holderName').press('Enter');
    await waitFor('error');
    const error = (await events()).find((e) => e.type === 'error')!.data;
    assert.equal(error.code, 'TICKET_EXPIRED');
    assert.equal(await frame.locator('#status').textContent(), 'Sessão expirada. Recarregue a página para tentar de novo.');
    assert.equal(await frame.locator('#submit').isDisabled(), true);
    await page.close();
  });

  test('a keyId missing from /keys is an error: no fallback to another key, nothing sent', async () => {
    const { frame, events, waitFor } = await openShop('?kid=vk_unknown');
    await frame.locator('#number').click();
    await frame.locator('#number').pressSequentially('4111111111111111');
    await frame.locator('#expiry').pressSequentially('1230');
    await frame.locator('#cvv').pressSequentially('123');
    await frame.locator('#holderName').pressSequentially('Ana Souza');
    const [sent, keysBefore] = [received.length, keyRequests];
    await frame.locator('#submit').click();
    await waitFor('error');
    assert.equal((await events()).find((e) => e.type === 'error')!.data.code, 'SERVICE_UNAVAILABLE');
    assert.equal(keyRequests - keysBefore, 2, 'asked again past the cache before giving up');
    assert.equal(received.length, sent);
    assert.equal(await frame.locator('#submit').isDisabled(), false, 'the user may retry');
  });

  after(async () => {
    await browser?.close();
    await new Promise((r) => vault?.close(r));
    await new Promise((r) => shop?.close(r));
  });
});
