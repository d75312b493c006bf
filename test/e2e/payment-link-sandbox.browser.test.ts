/**
 * A sandbox link's hosted page in real Chromium against a real `svc serve`
 * (SVC_ENV=sandbox), at 1280 and 390 px, checked by axe-core: it says it is a
 * test and lists the test cards; the installments read as charged (the
 * remainder centavos on the first: "1x de R$ 16,64 + 2x de R$ 16,63"); the
 * card-data footer shows on the card's pages only; Simular pagamento pays a
 * Pix and a boleto from the page; a paid sale links to its receipt
 * (comprovante), which opens without a session, prints and is sent by
 * WhatsApp; a wrong receipt address is not found.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { assertAccessible, assertNoSidewaysScroll, newPage, VIEWPORTS } from '../helpers/dashboard-browser.js';
import { screenshotsFolder } from '../helpers/screenshots.js';
import { startServer, type TestServer } from '../helpers/server.js';

type Json = Record<string, any>;

const SHOTS = screenshotsFolder('svc-pay-sandbox-screenshots');
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

/** Money is written with a no-break space after R$: compared here with a plain one. */
const spaced = (text: string) => text.replace(/\u00a0/g, ' ');

describe('a sandbox link’s hosted page', () => {
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

  async function createLink(): Promise<Json> {
    const res = await server.api('/v2/payment-links', { body: { amountCents: 4_990, description: 'Aula de violão', paymentMethods: ['CREDIT_CARD', 'PIX', 'BOLETO'], maxInstallments: 3 } });
    assert.equal(res.status, 201, await res.clone().text());
    return (await res.json()) as Json;
  }

  async function fillBuyer(page: Page, withAddress = false): Promise<void> {
    await page.getByLabel('Nome completo').fill('Maria da Silva');
    await page.getByLabel('CPF ou CNPJ').fill('529.982.247-25');
    await page.getByLabel('E-mail').fill('maria@example.com');
    if (!withAddress) return;
    await page.getByLabel('CEP').fill('01310-100');
    await page.getByLabel('Rua').fill('Avenida Paulista');
    await page.getByLabel('Número').fill('1000');
    await page.getByLabel('Bairro').fill('Bela Vista');
    await page.getByLabel('Cidade').fill('São Paulo');
    await page.getByLabel('UF').selectOption('SP');
  }

  const footer = (page: Page) => page.getByText(/Os dados do cartão são digitados em campos do cofre/);

  /** The receipt the paid page links to: it opens in a browser with no session, says what was paid, prints and is sent by WhatsApp. */
  async function checkReceipt(page: Page, shape: (typeof VIEWPORTS)[number], method: RegExp): Promise<void> {
    const link = page.getByRole('link', { name: 'Ver comprovante' });
    await link.waitFor();
    const href = String(await link.getAttribute('href'));
    assert.match(href, /\/pay\/receipts\/trx_[0-9a-z]+\/[A-Za-z0-9_-]{32}$/);
    const stranger = await newPage(browser, shape);
    await stranger.page.goto(href);
    await stranger.page.getByRole('heading', { name: 'Comprovante de pagamento', level: 1 }).waitFor();
    const facts = await stranger.page.locator('.facts').innerText();
    assert.match(facts, /R\$\s49,90/);
    assert.match(facts, method);
    assert.match(facts, /Maria da Silva · \*\*\*\.982\.247-\*\*/, 'the buyer, the document masked');
    assert.match(facts, /Loja Demo Ltda/);
    assert.match(facts, /trx_[0-9a-z]+/);
    assert.doesNotMatch(facts, /529\.982\.247-25|maria@example\.com/);
    await stranger.page.getByRole('button', { name: 'Imprimir' }).waitFor();
    assert.equal(await stranger.page.getByLabel('Link do comprovante').inputValue(), href);
    const whatsapp = String(await stranger.page.getByRole('link', { name: 'Enviar pelo WhatsApp' }).getAttribute('href'));
    assert.equal(whatsapp, `https://wa.me/?text=${encodeURIComponent(`Comprovante de pagamento: ${href}`)}`);
    await assertAccessible(stranger.page, `${shape.name} receipt`);
    await assertNoSidewaysScroll(stranger.page, `${shape.name} receipt`);
    await shot(stranger.page, `${shape.name}-receipt-${method.source.replace(/\W/g, '').slice(0, 12)}`);
    // Another token: not found, and nothing of the sale.
    await stranger.page.goto(href.replace(/\/[A-Za-z0-9_-]{32}$/, `/${'A'.repeat(32)}`));
    await stranger.page.getByRole('heading', { name: 'Comprovante não encontrado' }).waitFor();
    assert.doesNotMatch(await stranger.page.locator('body').innerText(), /Maria|49,90/);
    assert.deepEqual(stranger.problems, []);
    await stranger.page.context().close();
  }

  for (const shape of VIEWPORTS) {
    describe(`at ${shape.name} width`, () => {
      test('a test, said; the test cards; real installments; the card footer on card pages only; Pix paid with Simular pagamento; its receipt', async () => {
        const link = await createLink();
        const { page, problems } = await newPage(browser, shape);
        await page.goto(link.url);
        await page.getByRole('heading', { name: 'Ambiente de testes: nenhum dinheiro é movido' }).waitFor();
        await page.getByText('Cartões de teste do sandbox').click();
        const cards = page.locator('#test-cards li');
        assert.equal(await cards.count(), 4);
        assert.match(await cards.nth(0).innerText(), /4111 1111 1111 1111\s*aprovado/);
        assert.match(await cards.nth(1).innerText(), /recusado: saldo insuficiente/);

        // The card tab first: the installments as charged, and the footer about card data.
        const options = await page.getByLabel('Parcelas').locator('option').allInnerTexts();
        assert.deepEqual(options.map(spaced), ['1x de R$ 49,90 (à vista)', '2x de R$ 24,95', '1x de R$ 16,64 + 2x de R$ 16,63']);
        await footer(page).waitFor();
        await assertAccessible(page, `${shape.name} sandbox card form`);
        await assertNoSidewaysScroll(page, `${shape.name} sandbox card form`);
        await shot(page, `${shape.name}-sandbox-card-form`);

        // Pix: no card footer; Simular pagamento pays it from the page.
        await page.getByRole('tab', { name: 'Pix' }).click();
        await footer(page).waitFor({ state: 'hidden' });
        await fillBuyer(page);
        await page.getByRole('button', { name: 'Gerar QR Code Pix' }).click();
        await page.getByRole('heading', { name: 'Pague com Pix' }).waitFor();
        assert.equal(await footer(page).isVisible(), false, 'no card footer on a Pix');
        await assertAccessible(page, `${shape.name} sandbox pix`);
        await shot(page, `${shape.name}-sandbox-pix`);
        await page.getByRole('button', { name: 'Simular pagamento' }).click();
        await page.getByRole('heading', { name: 'Pagamento confirmado' }).waitFor();
        assert.equal(await footer(page).isVisible(), false);
        await assertAccessible(page, `${shape.name} sandbox pix paid`);
        await checkReceipt(page, shape, /^Pix$/m);
        assert.deepEqual(problems, [], 'no CSP violation or script error');
        await page.context().close();
      });

      test('a boleto: no card footer, paid with Simular pagamento, its receipt', async () => {
        const link = await createLink();
        const { page, problems } = await newPage(browser, shape);
        await page.goto(link.url);
        await page.getByRole('tab', { name: 'Boleto' }).click();
        await fillBuyer(page, true);
        await page.getByRole('button', { name: 'Gerar boleto' }).click();
        await page.getByRole('heading', { name: 'Boleto gerado' }).waitFor();
        assert.equal(await footer(page).isVisible(), false, 'no card footer on a boleto');
        await page.getByRole('button', { name: 'Simular pagamento' }).click();
        await page.getByRole('heading', { name: 'Pagamento confirmado' }).waitFor();
        await checkReceipt(page, shape, /^Boleto$/m);
        assert.deepEqual(problems, []);
        await page.context().close();
      });
    });
  }

  test('by card in 3 installments: the result says 1x de R$ 16,64 + 2x de R$ 16,63, the footer stays, and the receipt says it too', async () => {
    const link = await createLink();
    const { page, problems } = await newPage(browser, VIEWPORTS[0]);
    await page.goto(link.url);
    await fillBuyer(page);
    await page.getByLabel('Parcelas').selectOption('3');
    await page.getByRole('button', { name: 'Continuar para o cartão' }).click();
    await page.locator('#card-pay:enabled').waitFor();
    const frame = page.frameLocator('#card-fields iframe');
    await frame.locator('#number').pressSequentially('4111111111111111');
    await frame.locator('#expiry').pressSequentially('1230');
    await frame.locator('#cvv').pressSequentially('123');
    await frame.locator('#holderName').pressSequentially('Maria da Silva');
    await footer(page).waitFor();
    await page.locator('#card-pay').click();
    await page.getByRole('heading', { name: 'Pagamento confirmado' }).waitFor({ timeout: 20_000 });
    assert.equal(spaced(String(await page.locator('#result-method').textContent())), 'Cartão de crédito · visa •••• 1111 · 1x de R$ 16,64 + 2x de R$ 16,63');
    await footer(page).waitFor();
    await checkReceipt(page, VIEWPORTS[0], /Cartão de crédito · visa •••• 1111 · 1x de R\$\s16,64 \+ 2x de R\$\s16,63/);
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
