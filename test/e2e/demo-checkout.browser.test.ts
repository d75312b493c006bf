/**
 * The sandbox demo checkout (GET /demo/checkout) in real Chromium against a
 * real `svc serve` (compiled dist/, so `npm run build` first): the page as
 * served, under its own CSP, with the vault on another origin. It pays by
 * card (the vault's hosted fields, the page's own pay button), by Pix and by
 * boleto (simulated payment), switches language, and shows a refusal, with
 * no CSP violation or script error on the page or in the frame.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { screenshotsFolder } from '../helpers/screenshots.js';

describe('demo checkout page in Chromium', () => {
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    server = await startServer({ env: { RATE_LIMIT_PER_SECOND: '10000', VAULT_ATTEMPTS_PER_IP_PER_MINUTE: '1000' } });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    if (server) assert.deepEqual(await server.stop(), { code: 0, signal: null });
  });

  async function openDemo(viewport?: { width: number; height: number }): Promise<{ page: Page; problems: string[] }> {
    const page = viewport ? await (await browser.newContext({ viewport, isMobile: true, hasTouch: true, deviceScaleFactor: 2 })).newPage() : await browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(`${server.url}/demo/checkout`);
    // Ready once /demo/config answered: the company name is shown and the buttons are enabled.
    await page.locator('#card-begin:enabled').waitFor();
    return { page, problems };
  }

  /** Starts a card payment and waits for the hosted fields' "ready" (it enables the page's pay button). */
  async function beginCard(page: Page): Promise<void> {
    await page.locator('#card-begin').click();
    await page.locator('#card-form').waitFor({ state: 'visible' });
    await page.locator('#card-pay:enabled').waitFor();
  }

  async function payByCard(page: Page, number: string): Promise<void> {
    await beginCard(page);
    const frame = page.frameLocator('#card-fields iframe');
    await frame.locator('#number').pressSequentially(number);
    await frame.locator('#expiry').pressSequentially('1230');
    await frame.locator('#cvv').pressSequentially('123');
    await frame.locator('#holderName').pressSequentially('Maria da Silva');
    await page.locator('#card-pay').click();
    await page.locator('#result').waitFor({ state: 'visible', timeout: 20_000 });
  }

  test('a card payment: hosted fields in the page, the page\'s pay button, PAID with receivables', async () => {
    const { page, problems } = await openDemo();
    assert.equal(await page.locator('html').getAttribute('lang'), 'pt-BR');
    assert.notEqual(await page.locator('#company-name').textContent(), '');
    assert.equal(await page.locator('#test-cards li').count(), 4);
    await page.locator('#installments').selectOption('3');
    await beginCard(page);
    assert.equal(await page.locator('#card-loading').isHidden(), true);
    assert.match(String(await page.locator('#card-pay').textContent()), /^Pagar R\$\s159,90 em 3x$/);
    const frame = page.frameLocator('#card-fields iframe');
    await frame.locator('#number').pressSequentially('4111111111111111');
    assert.equal(await frame.locator('#number-brand').textContent(), 'Visa');
    await frame.locator('#expiry').pressSequentially('1230');
    await frame.locator('#cvv').pressSequentially('123');
    await frame.locator('#holderName').pressSequentially('Maria da Silva');
    await page.locator('#card-pay').click();
    await page.locator('#result').waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(await page.locator('#result-title').textContent(), 'Pagamento aprovado');
    assert.match(String(await page.locator('#result-method').textContent()), /^Cartão de crédito · visa •••• 1111 · 3x de R\$\s53,30$/);
    assert.match(String(await page.locator('#result-fee').textContent()), /^R\$\s?\d/, 'a paid sale shows its fee');
    assert.match(String(await page.locator('#result-id').textContent()), /^trx_/);
    assert.ok((await page.locator('#receivables-body tr').count()) >= 3, 'one receivable per installment');
    // Language switch re-renders the result.
    await page.locator('#lang-toggle').click();
    assert.equal(await page.locator('html').getAttribute('lang'), 'en');
    assert.equal(await page.locator('#result-title').textContent(), 'Payment approved');
    assert.match(String(await page.locator('#result-method').textContent()), /^Credit card/);
    await page.locator('#lang-toggle').click();
    assert.deepEqual(problems, [], 'no CSP violation or script error');
    await page.close();
  });

  test('a refused test card: FAILED with the refusal explained in Portuguese only', async () => {
    const { page, problems } = await openDemo();
    // The page asks in its own language, whatever the browser's (Chromium here says en-US).
    const languages = new Set<string>();
    page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/demo/') && r.resourceType() === 'fetch') languages.add(String(r.headers()['accept-language'])); });
    await payByCard(page, '4111113111110002');
    assert.equal(await page.locator('#result-title').textContent(), 'Pagamento recusado');
    assert.equal(await page.locator('#result-text').textContent(), 'O banco emissor recusou o pagamento: saldo insuficiente.');
    assert.equal(await page.locator('#result-refusal').textContent(), 'Código de recusa: insufficient_funds');
    // None of the acquirer's English refusalMessage reaches the page.
    assert.doesNotMatch(String(await page.locator('#result').innerText()), /issuer|refused|refusalCode|insufficient funds/i);
    assert.deepEqual([...languages], ['pt-BR']);
    await page.locator('#lang-toggle').click();
    assert.equal(await page.locator('#result-text').textContent(), 'The issuing bank refused the payment: insufficient funds.');
    assert.equal(await page.locator('#result-refusal').textContent(), 'Refusal code: insufficient_funds');
    // A sale that took no money shows no fee ("Tarifa") and no net, rather than amounts it never had.
    for (const selector of ['#result-fee', '#result-net', 'dt[data-i18n="factFee"]', 'dt[data-i18n="factNet"]']) {
      assert.equal(await page.locator(selector).isHidden(), true, `${selector} is hidden`);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('Pix: QR code and copy-and-paste code, simulated payment → PAID; then a new order', async () => {
    const { page, problems } = await openDemo();
    await page.locator('#tab-PIX').click();
    await page.locator('#pix-begin').click();
    await page.locator('#pix-charge').waitFor({ state: 'visible' });
    assert.match(String(await page.locator('#pix-qr').getAttribute('src')), /^data:image\/png;base64,/);
    assert.match(await page.locator('#pix-code').inputValue(), /^000201/);
    assert.equal(await page.locator('#tab-BOLETO').isDisabled(), true, 'the method is locked once charged');
    await page.locator('#pix-charge .simulate-pay').click();
    await page.locator('#result').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#result-title').textContent(), 'Pagamento aprovado');
    assert.match(String(await page.locator('#result-method').textContent()), /^Pix$/);
    await page.locator('#new-order').click();
    assert.equal(await page.locator('#result').isHidden(), true);
    assert.equal(await page.locator('#pix-start').isVisible(), true);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('boleto: an amount under R$ 5,00 is refused on the page; the digitable line is grouped; PAID', async () => {
    const { page, problems } = await openDemo();
    await page.locator('#tab-BOLETO').click();
    await page.locator('#amount').fill('4,99');
    await page.locator('#boleto-begin').click();
    assert.equal(await page.locator('#amount-error').textContent(), 'O boleto exige pelo menos R$ 5,00.');
    await page.locator('#amount').fill('1.234,56');
    await page.locator('#boleto-begin').click();
    await page.locator('#boleto-charge').waitFor({ state: 'visible' });
    assert.match(await page.locator('#boleto-line').inputValue(), /^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
    assert.match(String(await page.locator('#boleto-due').textContent()), /^\d{2}\/\d{2}\/\d{4}$/);
    await page.locator('#boleto-charge .simulate-pay').click();
    await page.locator('#result').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#result-title').textContent(), 'Pagamento aprovado');
    assert.match(String(await page.locator('#result-amount').textContent()), /^R\$\s1\.234,56$/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('on a 390 px phone: the whole card number shows, nothing overflows, the copy buttons fit', async () => {
    const { page, problems } = await openDemo({ width: 390, height: 844 });
    const shots = screenshotsFolder('svc-pay-screenshots');
    const noOverflow = async () => {
      const { scroll, width } = await page.evaluate(() => { const g = globalThis as any; return { scroll: g.document.documentElement.scrollWidth as number, width: g.innerWidth as number }; });
      assert.ok(scroll <= width, `page is ${scroll}px wide in a ${width}px viewport`);
    };
    await beginCard(page);
    const frame = page.frameLocator('#card-fields iframe');
    await frame.locator('#number').pressSequentially('4111111111111111');
    // The number's box is as wide as its text: nothing scrolled out of sight.
    const number = await frame.locator('#number').evaluate((el: any) => ({ scroll: el.scrollWidth as number, client: el.clientWidth as number }));
    assert.ok(number.scroll <= number.client, `card number cut: ${number.scroll} > ${number.client}`);
    await noOverflow();
    const box = await page.locator('.test-cards').boundingBox();
    for (const button of await page.locator('#test-cards .copy').all()) {
      const b = await button.boundingBox();
      assert.ok(box && b && b.x + b.width <= box.x + box.width, 'each test card\'s copy button stays inside the list');
    }
    await page.screenshot({ path: path.join(shots, 'demo-phone-card.png'), fullPage: true });
    // A test card's copy button copies its digits.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.locator('#test-cards .copy').first().click();
    await page.locator('#test-cards .copy', { hasText: 'Copiado!' }).waitFor();
    assert.equal(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText()), '4111111111111111');
    await page.locator('#card-cancel').click();
    await page.locator('#tab-PIX').click();
    await page.locator('#pix-begin').click();
    await page.locator('#pix-charge').waitFor({ state: 'visible' });
    await noOverflow();
    const panel = await page.locator('#panel-PIX').boundingBox();
    const copy = await page.locator('#pix-charge .copy').boundingBox();
    assert.ok(panel && copy && copy.x + copy.width <= panel.x + panel.width, 'the copy button stays inside its panel');
    await page.screenshot({ path: path.join(shots, 'demo-phone-pix.png'), fullPage: true });
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
