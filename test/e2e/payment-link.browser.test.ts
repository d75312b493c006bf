/**
 * The hosted payment page of a payment link (GET /pay/{id}) in real Chromium
 * against a real `svc serve` (compiled dist/, so `npm run build` first), at a
 * desktop width and at a 390 px phone viewport: a link paid by card (the
 * vault's hosted fields), by Pix (the status turns to "Pago" after the
 * sandbox pay route, without a reload), by boleto (digitable line and the
 * printable boleto); an expired link; a `maxPayments: 1` link paid by two
 * buyers at once, of whom one wins; and a seller's text with `$` replacement
 * patterns, shown as typed. No CSP violation or script error on the
 * page. Screenshots go to $TMPDIR/svc-pay-screenshots/ (look at them).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { cnpj } from '../helpers/fixtures.js';
import { apiClient, startServer, type TestServer } from '../helpers/server.js';
import { screenshotsFolder } from '../helpers/screenshots.js';

type Json = Record<string, any>;

const SHOTS = screenshotsFolder('svc-pay-screenshots');
const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 860 } },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
] as const;

describe('payment link page in Chromium', () => {
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    server = await startServer({ env: { RATE_LIMIT_PER_SECOND: '10000', VAULT_ATTEMPTS_PER_IP_PER_MINUTE: '1000', PAY_PAGE_PER_IP_PER_MINUTE: '1000' } });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    if (server) assert.deepEqual(await server.stop(), { code: 0, signal: null });
  });

  async function createLink(body: Json): Promise<Json> {
    const res = await server.api('/v2/payment-links', { body: { amountCents: 15_990, description: 'Curso online de fotografia', ...body } });
    assert.equal(res.status, 201, await res.clone().text());
    return (await res.json()) as Json;
  }

  /** GET of the API with the sandbox key, as JSON. */
  async function get(pathname: string): Promise<Json> {
    return (await (await server.api(pathname)).json()) as Json;
  }

  async function open(url: string, shape: (typeof VIEWPORTS)[number]): Promise<{ page: Page; problems: string[] }> {
    const { name: _name, ...options } = shape;
    const context = await browser.newContext(options);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(url);
    return { page, problems };
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

  async function fillBuyer(page: Page, withAddress = false): Promise<void> {
    await page.locator('#buyer-name').fill('Maria da Silva');
    await page.locator('#buyer-document').fill('529.982.247-25');
    await page.locator('#buyer-email').fill('maria@example.com');
    if (!withAddress) return;
    await page.locator('#address-zipCode').fill('01310-100');
    await page.locator('#address-street').fill('Avenida Paulista');
    await page.locator('#address-number').fill('1000');
    await page.locator('#address-neighborhood').fill('Bela Vista');
    await page.locator('#address-city').fill('São Paulo');
    await page.locator('#address-state').selectOption('SP');
  }

  async function typeCard(page: Page, number = '4111111111111111'): Promise<void> {
    await page.locator('#card-pay:enabled').waitFor();
    const frame = page.frameLocator('#card-fields iframe');
    await frame.locator('#number').pressSequentially(number);
    await frame.locator('#expiry').pressSequentially('1230');
    await frame.locator('#cvv').pressSequentially('123');
    await frame.locator('#holderName').pressSequentially('Maria da Silva');
  }

  /** The page never scrolls sideways: nothing is wider than the viewport. */
  async function assertNoOverflow(page: Page): Promise<void> {
    const { scroll, width } = await page.evaluate(() => { const g = globalThis as any; return { scroll: g.document.documentElement.scrollWidth as number, width: g.innerWidth as number }; });
    assert.ok(scroll <= width, `page is ${scroll}px wide in a ${width}px viewport`);
  }

  test("what a seller typed shows as typed, $', $`, $& and $1 included; an id is never echoed", async () => {
    const typed = "AAA$'BBB $` $& $1";
    const company = await server.cli('company', 'create', '--name', `Loja ${typed}`, '--document', cnpj('452219060001'), '--json');
    assert.equal(company.code, 0, company.stderr);
    const issued = await server.cli('key', 'issue', '--company', (company.json as Json).id, '--json');
    assert.equal(issued.code, 0, issued.stderr);
    const created = await apiClient(server.url, (issued.json as Json).key)('/v2/payment-links', { body: { amountCents: 15_990, description: `Curso ${typed}`, paymentMethods: ['PIX'] } });
    assert.equal(created.status, 201, await created.clone().text());
    const { page, problems } = await open(((await created.json()) as Json).url, VIEWPORTS[0]);
    assert.equal(await page.locator('#seller-name').textContent(), `Loja ${typed}`);
    assert.equal(await page.locator('#description').textContent(), `Curso ${typed}`);
    assert.ok((await page.title()).endsWith(` · Loja ${typed}`), await page.title());
    assert.equal(await page.locator('#checkout').isVisible(), true, 'the page\'s script ran: its form is shown');
    assert.deepEqual(problems, []);
    // The security review's phishing address, and ids with the other patterns: the not-found page, none of their text.
    for (const id of ["x$'%20Link%20movido:%20pague%20via%20Pix%20chave%20golpe@evil.example", 'x$`%20golpe', 'plink_$&%20golpe', 'plink_$1%20golpe']) {
      await page.goto(`${server.url}/pay/${id}`);
      assert.equal(await page.locator('#unavailable-title').textContent(), 'Link de pagamento não encontrado', id);
      assert.doesNotMatch(await page.locator('body').innerText(), /golpe|movido/, id);
    }
    await page.context().close();
  });

  for (const shape of VIEWPORTS) {
    describe(`at ${shape.name} width`, () => {
      test('by card: the buyer\'s data, installments, the vault\'s fields, paid', async () => {
        const link = await createLink({ paymentMethods: ['CREDIT_CARD', 'PIX', 'BOLETO'], maxInstallments: 6 });
        const { page, problems } = await open(link.url, shape);
        assert.equal(await page.locator('html').getAttribute('lang'), 'pt-BR');
        assert.equal(await page.locator('#seller-name').textContent(), 'Loja Demo Ltda');
        assert.equal(await page.locator('#description').textContent(), 'Curso online de fotografia');
        assert.match(String(await page.locator('#amount').textContent()), /^R\$\s159,90$/);
        assert.equal(await page.locator('#installments option').count(), 6);
        // A wrong CPF is caught on the page, under its field.
        await page.locator('#buyer-document').fill('529.982.247-00');
        await page.locator('#submit').click();
        assert.equal(await page.locator('#buyer-document-error').textContent(), 'CPF ou CNPJ inválido: confira os números.');
        await fillBuyer(page);
        await page.locator('#installments').selectOption('3');
        await shot(page, `${shape.name}-card-form`);
        await page.locator('#submit').click();
        await typeCard(page);
        assert.match(String(await page.locator('#card-pay').textContent()), /^Pagar R\$\s159,90 em 3x$/);
        await assertNoOverflow(page);
        await shot(page, `${shape.name}-card-fields`);
        await page.locator('#card-pay').click();
        await page.locator('#result').waitFor({ state: 'visible', timeout: 20_000 });
        assert.equal(await page.locator('#result-title').textContent(), 'Pagamento confirmado');
        assert.match(String(await page.locator('#result-method').textContent()), /^Cartão de crédito · visa •••• 1111 · 3x de R\$\s53,30$/);
        await shot(page, `${shape.name}-card-paid`);
        const sales = await get(`/v2/transactions?paymentLinkId=${link.id}`);
        assert.equal(sales.data.length, 1);
        assert.equal(sales.data[0].status, 'PAID');
        assert.deepEqual(problems, [], 'no CSP violation or script error');
        await page.context().close();
      });

      test('a refused card: told why in Portuguese (or English), then paid with another card', async () => {
        const link = await createLink({ paymentMethods: ['CREDIT_CARD'] });
        const { page, problems } = await open(link.url, shape);
        const languages = new Set<string>();
        page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/pay/') && r.resourceType() === 'fetch') languages.add(String(r.headers()['accept-language'])); });
        await page.locator('#lang-toggle').click();
        assert.equal(await page.locator('#submit').textContent(), 'Continue to card');
        await page.locator('#lang-toggle').click();
        await fillBuyer(page);
        await page.locator('#submit').click();
        await typeCard(page, '4111113111110002');
        await page.locator('#card-pay').click();
        await page.locator('#result').waitFor({ state: 'visible', timeout: 20_000 });
        assert.equal(await page.locator('#result-title').textContent(), 'Pagamento recusado');
        assert.equal(await page.locator('#result-text').textContent(), 'O banco emissor recusou o pagamento: saldo insuficiente.');
        // Only Portuguese: none of the acquirer's English refusalMessage, and the page asks the API in its language.
        assert.doesNotMatch(String(await page.locator('#result').innerText()), /issuer|refused|insufficient funds/i);
        assert.deepEqual([...languages], ['pt-BR']);
        assert.equal(await page.locator('#result-state').textContent(), 'Recusado');
        await shot(page, `${shape.name}-card-refused`);
        await page.locator('#lang-toggle').click();
        assert.equal(await page.locator('#result-text').textContent(), 'The issuing bank refused the payment: insufficient funds.');
        await shot(page, `${shape.name}-card-refused-en`);
        await page.locator('#lang-toggle').click();
        await page.locator('#result-retry').click();
        assert.equal(await page.locator('#buyer-name').inputValue(), 'Maria da Silva', 'the buyer\'s data is kept');
        await page.locator('#submit').click();
        await typeCard(page);
        await page.locator('#card-pay').click();
        await page.locator('#result.paid').waitFor({ timeout: 20_000 });
        const sales = await get(`/v2/transactions?paymentLinkId=${link.id}`);
        assert.deepEqual(sales.data.map((x: Json) => x.status).sort(), ['FAILED', 'PAID']);
        assert.deepEqual(problems, []);
        await page.context().close();
      });

      test('by Pix: QR code and copy-and-paste; "Pago" appears without a reload after the sandbox pay route', async () => {
        const link = await createLink({ paymentMethods: ['PIX', 'BOLETO'] });
        const { page, problems } = await open(link.url, shape);
        await page.locator('#tab-PIX').click();
        await fillBuyer(page);
        // An alphanumeric CNPJ typed in lowercase with punctuation: the page shows it formatted and sends it bare.
        await page.locator('#buyer-document').fill('12.abc.345/01de-35');
        await page.locator('#buyer-email').focus();
        assert.equal(await page.locator('#buyer-document').inputValue(), '12.ABC.345/01DE-35');
        await page.locator('#submit').click();
        await page.locator('#pix-step').waitFor({ state: 'visible' });
        assert.match(String(await page.locator('#pix-qr').getAttribute('src')), /^data:image\/png;base64,/);
        assert.match(await page.locator('#pix-code').inputValue(), /^000201/);
        assert.equal(await page.locator('#pix-state').textContent(), 'Aguardando pagamento');
        await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
        await page.locator('#pix-step .copy').click();
        await page.locator('#pix-step .copy', { hasText: 'Copiado!' }).waitFor();
        assert.equal(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText()), await page.locator('#pix-code').inputValue());
        await assertNoOverflow(page);
        await shot(page, `${shape.name}-pix-waiting`);
        const sales = await get(`/v2/transactions?paymentLinkId=${link.id}`);
        assert.equal(sales.data[0].buyer.document, '12ABC34501DE35');
        const paid = await server.api(`/v2/sandbox/transactions/${sales.data[0].id}/pay`, { method: 'POST' });
        assert.equal(paid.status, 200);
        await page.locator('#result').waitFor({ state: 'visible', timeout: 15_000 });
        assert.equal(await page.locator('#result-state').textContent(), 'Pago');
        assert.equal(await page.locator('#result-title').textContent(), 'Pagamento confirmado');
        await shot(page, `${shape.name}-pix-paid`);
        // The language switch re-words the result.
        await page.locator('#lang-toggle').click();
        assert.equal(await page.locator('#result-title').textContent(), 'Payment confirmed');
        await page.locator('#lang-toggle').click();
        assert.deepEqual(problems, []);
        await page.context().close();
      });

      test('by boleto: the address, the digitable line, the printable boleto', async () => {
        const link = await createLink({ paymentMethods: ['BOLETO'] });
        const { page, problems } = await open(link.url, shape);
        assert.equal(await page.locator('#tab-BOLETO').isVisible(), true);
        assert.equal(await page.locator('#tab-PIX').isVisible(), false, 'only the link\'s methods are offered');
        await fillBuyer(page, true);
        await shot(page, `${shape.name}-boleto-form`);
        await page.locator('#submit').click();
        await page.locator('#boleto-step').waitFor({ state: 'visible' });
        assert.match(await page.locator('#boleto-line').inputValue(), /^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
        assert.match(String(await page.locator('#boleto-due').textContent()), /^\d{2}\/\d{2}\/\d{4}$/);
        await assertNoOverflow(page);
        await shot(page, `${shape.name}-boleto-issued`);
        await page.emulateMedia({ media: 'print' });
        assert.equal(await page.locator('#boleto-sheet').isVisible(), true);
        assert.equal(await page.locator('#boleto-sheet svg.barcode rect').count(), 2 + (44 / 2) * 5 + 2, 'ITF: two bars to start, 5 per pair of digits, two to stop');
        assert.match(String(await page.locator('#boleto-sheet').textContent()), /Maria da Silva · 529\.982\.247-25/);
        await shot(page, `${shape.name}-boleto-print`);
        await page.emulateMedia({ media: 'screen' });
        assert.deepEqual(problems, []);
        await page.context().close();
      });

      test('an expired link: a clear page, no form', async () => {
        const link = await createLink({ paymentMethods: ['PIX'], expiresAt: new Date(Date.now() + 1_500).toISOString() });
        await new Promise((r) => setTimeout(r, 1_600));
        const { page, problems } = await open(link.url, shape);
        assert.equal(await page.locator('#unavailable-title').textContent(), 'Este link de pagamento expirou');
        assert.equal(await page.locator('#checkout').isVisible(), false);
        await assertNoOverflow(page);
        await shot(page, `${shape.name}-expired`);
        assert.deepEqual(problems, []);
        // An address that is no link at all (a typo in it) gets a page that says so.
        await page.goto(`${server.url}/pay/plink_00000000000000000000000000`);
        assert.equal(await page.locator('#unavailable-title').textContent(), 'Link de pagamento não encontrado');
        assert.equal(await page.locator('.order').isVisible(), false);
        await shot(page, `${shape.name}-not-found`);
        await page.context().close();
      });

      test('a maxPayments: 1 link paid by two buyers at once: one wins, the other is told', async () => {
        const link = await createLink({ paymentMethods: ['CREDIT_CARD'], maxPayments: 1 });
        const buyers = await Promise.all([open(link.url, shape), open(link.url, shape)]);
        for (const { page } of buyers) {
          await fillBuyer(page);
          await page.locator('#submit').click();
          await typeCard(page);
        }
        await Promise.all(buyers.map(({ page }) => page.locator('#card-pay').click()));
        const outcomes = await Promise.all(
          buyers.map(({ page }) =>
            Promise.race([
              page.locator('#result').waitFor({ state: 'visible', timeout: 20_000 }).then(() => 'paid'),
              page.locator('#unavailable').waitFor({ state: 'visible', timeout: 20_000 }).then(() => 'refused'),
            ]),
          ),
        );
        assert.deepEqual([...outcomes].sort(), ['paid', 'refused']);
        const loser = buyers[outcomes.indexOf('refused')]!.page;
        assert.equal(await loser.locator('#unavailable-title').textContent(), 'Este link de pagamento não aceita mais pagamentos');
        assert.equal(await loser.locator('#unavailable-text').textContent(), 'Ele já recebeu o pagamento de outro comprador, expirou ou foi cancelado. Nada foi cobrado de você.');
        assert.equal(await loser.locator('#card-step').isVisible(), false, 'no card form left to fill');
        await shot(loser, `${shape.name}-max-payments-refused`);
        const sales = await get(`/v2/transactions?paymentLinkId=${link.id}`);
        assert.equal(sales.data.length, 1, 'one sale');
        assert.equal((await get(`/v2/payment-links/${link.id}`)).status, 'COMPLETED');
        for (const { page, problems } of buyers) {
          assert.deepEqual(problems.filter((p) => !/409/.test(p)), []);
          await page.context().close();
        }
      });
    });
  }
});
