/**
 * The API reference page (GET /docs) in real Chromium against a real
 * `svc serve` (compiled dist/, so `npm run build` first): our page, not a
 * framework's, under its own CSP; it lists the operations of /openapi.json by
 * tag, its "try it" creates a Pix payment intent in the sandbox (201) with
 * the pasted key, and the page is in one language at a time (its labels, the
 * guide, the groups, the operations and schemas), switched by its button,
 * remembered by the browser and carried by `?lang=` in the address. A
 * screenshot goes to $TMPDIR/svc-docs-screenshots/.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { screenshotsFolder } from '../helpers/screenshots.js';

const SHOTS = screenshotsFolder('svc-docs-screenshots');

describe('API reference page in Chromium', () => {
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    server = await startServer();
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    if (server) assert.deepEqual(await server.stop(), { code: 0, signal: null });
  });

  test('GET /docs is our page under a strict CSP; the framework UI is gone', async () => {
    const res = await fetch(`${server.url}/docs`);
    assert.equal(res.status, 200);
    assert.match(String(res.headers.get('content-type')), /^text\/html/);
    const csp = String(res.headers.get('content-security-policy'));
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    const html = await res.text();
    assert.match(html, /<title>API de cobranças<\/title>/);
    assert.doesNotMatch(html, /swagger/i);
    assert.equal((await fetch(`${server.url}/docs/static/index.html`)).status, 404);
    // The document the page shows, in each language; another language is the contract's error naming the field.
    const inPortuguese = (await (await fetch(`${server.url}/openapi.json?lang=pt-BR`)).json()) as { info: { title: string } };
    assert.equal(inPortuguese.info.title, 'API de cobranças');
    const inEnglish = (await (await fetch(`${server.url}/openapi.json?lang=en`)).json()) as { info: { title: string } };
    assert.equal(inEnglish.info.title, 'Payment collection API');
    const other = await fetch(`${server.url}/openapi.json?lang=fr`);
    assert.equal(other.status, 400);
    const error = (await other.json()) as { code: string; details: { field: string }[] };
    assert.equal(error.code, 'VALIDATION_ERROR');
    assert.deepEqual(error.details.map((d) => d.field), ['lang']);
  });

  test('lists the operations by tag, tries a Pix intent (201) with the pasted key, switches language', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(`${server.url}/docs`);
    await page.locator('article.op').first().waitFor();

    await page.screenshot({ path: path.join(SHOTS, 'docs-top.png') });
    assert.equal(await page.title(), 'API de cobranças');
    assert.equal(await page.locator('#api-title').textContent(), 'API de cobranças');
    assert.equal(await page.locator('img').count(), 0, 'no logo');
    const spec = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const expected = Object.values(spec.paths).reduce((n, item) => n + Object.keys(item).filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k)).length, 0);
    assert.equal(await page.locator('article.op').count(), expected, 'every operation of /openapi.json');
    await assertOneLanguage(page, 'pt-BR');

    // The key is pasted once and kept for the tab (sessionStorage), not in localStorage.
    await page.locator('#api-key').fill(server.key);
    const storage = () => page.evaluate(() => { const g = globalThis as any; return { session: g.sessionStorage.getItem('svc-docs-key') as string, local: JSON.stringify(g.localStorage) }; });
    const stored = await storage();
    assert.equal(stored.session, server.key);
    assert.doesNotMatch(stored.local, /svc_test_/);

    // The operation's example as it stands: a Pix intent, 201.
    const create = page.locator('#op-post-v2-payment-intents');
    const sendAndWait = async (op: typeof create) => {
      await op.locator('.try-output').evaluate((el) => el.removeAttribute('data-status'));
      await op.locator('.try-send').click();
      await op.locator('.try-output[data-status]').waitFor();
      return { status: await op.locator('.try-output').getAttribute('data-status'), text: String(await op.locator('.try-output').textContent()) };
    };
    await create.locator('.try-toggle').click();
    const body = JSON.parse(await create.locator('.try-body').inputValue()) as Record<string, unknown>;
    assert.equal(body.paymentMethod, 'PIX');
    // Every documented example can be chosen; the first (Pix) is shown.
    assert.ok((await create.locator('.try-example option').count()) >= 2, 'the examples are offered');
    const first = await sendAndWait(create);
    assert.equal(first.status, '201', first.text);
    assert.match(first.text, /"id": "pi_/);
    await page.screenshot({ path: path.join(SHOTS, 'docs-try-it.png'), fullPage: false });

    // The same body left unconfirmed, then "try it" on confirm: its {id} is that intent, no body, a fresh Idempotency-Key: 201.
    const { confirm: _confirm, ...unconfirmed } = body;
    await create.locator('.try-body').fill(JSON.stringify(unconfirmed));
    const second = await sendAndWait(create);
    assert.equal(second.status, '201', second.text);
    const intentId = /"id": "(pi_[0-9a-z]+)"/.exec(second.text)?.[1];
    assert.ok(intentId, 'the created intent is shown');

    // Confirm: its {id} is the intent just created, no body, a fresh Idempotency-Key: the Pix charge (201).
    const confirm = page.locator('#op-post-v2-payment-intents-id-confirm');
    await confirm.locator('.try-toggle').click();
    assert.equal(await confirm.locator('input[name="id"]').inputValue(), intentId);
    const confirmed = await sendAndWait(confirm);
    assert.equal(confirmed.status, '201', confirmed.text);
    assert.match(confirmed.text, /"id": "trx_/);

    // A listing with no body, and an error answered in the page's language.
    const list = page.locator('#op-get-v2-transactions');
    await list.locator('.try-toggle').click();
    assert.equal((await sendAndWait(list)).status, '200');

    assert.equal(await page.locator('html').getAttribute('lang'), 'pt-BR');
    assert.equal(await page.locator('#key-title').textContent(), 'Sua chave de sandbox');
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Payment intents' }).first().waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'en');
    assert.equal(await page.locator('#key-title').textContent(), 'Your sandbox key');
    assert.equal(await page.locator('#op-post-v2-payment-intents .try-toggle').textContent(), 'Try it');
    await assertOneLanguage(page, 'en');
    assert.equal(new URL(page.url()).searchParams.get('lang'), 'en', 'the address carries the choice');
    const get = page.locator('#op-get-v2-payment-intents-id');
    await get.locator('.try-toggle').click();
    await get.locator('input[name="id"]').fill('pi_nope');
    assert.match((await sendAndWait(get)).text, /^404 .*"Payment intent not found"/s);
    await page.locator('#lang-toggle').click();
    await page.getByRole('heading', { name: 'Intenções de pagamento' }).first().waitFor();
    assert.equal(await page.locator('#key-title').textContent(), 'Sua chave de sandbox');
    await get.locator('.try-toggle').click();
    await get.locator('input[name="id"]').fill('pi_nope');
    assert.match((await sendAndWait(get)).text, /"Intenção de pagamento não encontrada"/);
    // The two 404s asked for above are logged by Chromium as failed loads; nothing else may be.
    assert.deepEqual(problems.filter((p) => !/status of 404/.test(p)), [], 'no CSP violation or script error');
    await context.close();
  });

  test('the language chosen is remembered, and a link with ?lang= opens in its language', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/docs`);
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Payment intents' }).first().waitFor();
    // The same browser, the plain address: still English.
    await page.goto(`${server.url}/docs`);
    await page.getByRole('heading', { name: 'Payment intents' }).first().waitFor();
    await assertOneLanguage(page, 'en');
    // A link that says Portuguese wins over the remembered choice.
    await page.goto(`${server.url}/docs?lang=pt-BR`);
    await page.getByRole('heading', { name: 'Intenções de pagamento' }).first().waitFor();
    await assertOneLanguage(page, 'pt-BR');
    assert.equal(await page.title(), 'API de cobranças');
    await context.close();
  });
});

/** Words only one of the languages has: the page in `locale` shows none of the other's. */
const WORDS = { 'pt-BR': /\b(uma?|para|não|transação|consultar|listar|obrigatório|com|de)\b/gi, en: /\b(the|of|with|and|list|create|required|when|only|newest)\b/gi };

/** The whole page (guide, groups, operations, schemas, labels) is in `locale`, and none of it in the other language. */
async function assertOneLanguage(page: Page, locale: 'pt-BR' | 'en'): Promise<void> {
  await page.locator('article.op').first().waitFor();
  assert.equal(await page.locator('html').getAttribute('lang'), locale);
  const text = await page.locator('body').innerText();
  const groups = await page.locator('section.tag > h2').allTextContents();
  assert.ok(groups.includes(locale === 'en' ? 'Payment intents' : 'Intenções de pagamento'), groups.join(', '));
  assert.ok(!groups.includes('Operation'), 'no group named "Operation"');
  assert.match(String(await page.locator('#guide-body').textContent()), locale === 'en' ? /^Charge buyers.*Authentication\./s : /^Cobre compradores.*Autenticação\./s);
  const other = [...new Set((text.match(WORDS[locale === 'en' ? 'pt-BR' : 'en']) ?? []).map((w) => w.toLowerCase()))];
  assert.deepEqual(other, [], `words of the other language on the ${locale} page`);
}
