/**
 * What a seller follows of a sale, in real Chromium against the real service
 * (`svc serve`, compiled dist/), at 1280 and 390 px, each page checked by
 * axe-core and found by role, label and name: Transações says Reembolsado and
 * Reembolso parcial and filters them (and Contestado) on the server; a refund
 * is confirmed as "Reembolso de R$ 24,95 concluído"; the timeline and
 * Auditoria word events and actions; a boleto's second copy (line, barcode,
 * due date, Imprimir boleto); a paid sale's Comprovante, its address opened
 * without a session; a link shared from its row (copy, QR, WhatsApp); the
 * two-step code field starts empty; recovery codes stay whole at 390 px; and
 * every page, in Portuguese and in English, shows no raw enum or event name.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { assertAccessible, assertNoSidewaysScroll, newPage, signIn, VIEWPORTS, type Viewport } from '../helpers/dashboard-browser.js';
import { BUYER } from '../helpers/fixtures.js';
import { screenshotsFolder } from '../helpers/screenshots.js';
import { startServer, type TestServer } from '../helpers/server.js';

type Json = Record<string, any>;

const SHOTS = screenshotsFolder('svc-dashboard-sales-screenshots');
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

/** Money is written with a no-break space after R$: compared here with a plain one. */
const spaced = (text: string) => text.replace(/\u00a0/g, ' ');

/** The service's enums and event names as they would leak onto a page (statuses, methods, refund states, `transaction.paid`, `session.signed_in`). */
const RAW_ENUM = /\b(?:PENDING|PAID|FAILED|CANCELED|SUCCEEDED|ACTIVE|EXPIRED|COMPLETED|DISABLED|REFUNDED|CREDIT_CARD|PIX|BOLETO|SELLER|[A-Z]+_[A-Z_]+)\b/;
const EVENT_NAME = /\b[a-z]+(?:_[a-z]+)*\.[a-z]+(?:_[a-z]+)*\b/;

describe('dashboard sales follow-up against the service', () => {
  let server: TestServer;
  let browser: Browser;
  let adminPassword: string;

  before(async () => {
    server = await startServer({ env: { RATE_LIMIT_PER_SECOND: '10000', DASHBOARD_SIGNIN_PER_IP_PER_MINUTE: '1000', PAY_PAGE_PER_IP_PER_MINUTE: '1000', VAULT_ATTEMPTS_PER_IP_PER_MINUTE: '1000', DASHBOARD_TEST_PASSWORD_HASHES: 'true' } });
    browser = await launchChromium();
    adminPassword = fs.readFileSync(path.join(server.dataDir, 'dashboard-password.txt'), 'utf8').trim();
  });

  after(async () => {
    await browser?.close();
    if (server) assert.deepEqual(await server.stop(), { code: 0, signal: null });
  });

  async function api(pathname: string, body?: unknown, headers: Record<string, string> = {}): Promise<Json> {
    const res = await server.api(pathname, { ...(body !== undefined ? { body } : { method: 'POST' }), headers });
    assert.ok(res.status < 300, `${pathname}: ${res.status} ${await res.clone().text()}`);
    return (await res.json()) as Json;
  }
  /** A sale of `amountCents` by `method`, confirmed, and paid when `pay`. */
  async function sale(name: string, amountCents: number, method: 'PIX' | 'BOLETO', pay: boolean): Promise<Json> {
    const intent = await api('/v2/payment-intents', { amountCents, paymentMethod: method, referenceId: `pedido-${name}-${Date.now()}`, buyer: { ...BUYER, name } });
    const trx = await api(`/v2/payment-intents/${intent.id}/confirm`, undefined, { 'idempotency-key': `${intent.id}-c` });
    return pay ? api(`/v2/sandbox/transactions/${trx.id}/pay`) : trx;
  }
  async function signedIn(shape: Viewport): Promise<{ page: Page; problems: string[] }> {
    const opened = await newPage(browser, shape);
    await signIn(opened.page, server.url, 'demo@loja.example', adminPassword);
    await opened.page.getByRole('heading', { name: 'Início', level: 1 }).waitFor();
    return opened;
  }
  const check = async (page: Page, what: string) => {
    await assertAccessible(page, what);
    await assertNoSidewaysScroll(page, what);
  };

  for (const shape of VIEWPORTS) {
    test(`at ${shape.name} width: refunds said and filtered, the refund confirmed in words, the timeline and Auditoria in words`, async () => {
      const partly = await sale(`Paula ${shape.name}`, 4_990, 'PIX', true);
      const fully = await sale(`Rita ${shape.name}`, 3_000, 'PIX', true);
      await api(`/v2/transactions/${fully.id}/refunds`, { amountCents: 3_000 }, { 'idempotency-key': `full-${fully.id}` });
      const { page, problems } = await signedIn(shape);

      // A sale refunded in full says Reembolsado in the list.
      await page.goto(`${server.url}/dashboard/transactions`);
      const row = (trx: Json) => page.getByRole('row').filter({ has: page.getByRole('link', { name: trx.id }) });
      await row(fully).getByText('Reembolsado', { exact: true }).waitFor();
      await row(partly).getByText('Pago', { exact: true }).waitFor();

      // Reembolsar R$ 24,95 of R$ 49,90: the confirmation in words, the sale then Reembolso parcial.
      await page.goto(`${server.url}/dashboard/transactions/${partly.id}`);
      await page.getByRole('button', { name: 'Reembolsar' }).click();
      const dialog = page.getByRole('dialog', { name: 'Reembolsar venda' });
      await dialog.getByLabel('Valor').fill('24,95');
      await dialog.getByRole('button', { name: 'Confirmar reembolso' }).click();
      const notice = page.getByText(/^Reembolso de R\$/);
      await notice.waitFor();
      assert.equal(spaced(String(await notice.textContent())), 'Reembolso de R$ 24,95 concluído');
      assert.equal(await page.getByText('SUCCEEDED').count(), 0);
      await page.locator('.facts').getByText('Reembolso parcial', { exact: true }).waitFor();
      // The timeline names its events in words.
      const timeline = page.getByRole('region', { name: 'Linha do tempo' });
      await timeline.getByText('Pagamento confirmado').first().waitFor();
      await timeline.getByText('Reembolso concluído').first().waitFor();
      assert.doesNotMatch(await timeline.innerText(), /transaction\.paid|refund\.succeeded/);
      await check(page, `${shape.name} sale refunded in part`);
      await shot(page, `${shape.name}-sale-refunded-in-part`);

      // The status filter, on the server: Reembolsado, Reembolso parcial, Contestado.
      await page.goto(`${server.url}/dashboard/transactions`);
      const options = await page.getByLabel('Status').locator('option').allInnerTexts();
      for (const label of ['Reembolsado', 'Reembolso parcial', 'Contestado']) assert.ok(options.includes(label), `${label} in ${options.join(', ')}`);
      for (const [label, status, sale] of [['Reembolsado', 'REFUNDED', fully], ['Reembolso parcial', 'PARTIALLY_REFUNDED', partly]] as const) {
        await page.getByLabel('Status').selectOption({ label });
        const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/dashboard/api/transactions' && new URL(r.url()).searchParams.get('status') === status);
        await page.getByRole('button', { name: 'Filtrar' }).click();
        const ids = ((await (await answered).json()) as Json).data.map((t: Json) => t.id) as string[];
        assert.ok(ids.includes(sale.id), `${label}: ${ids.join(', ')}`);
        assert.ok(!ids.includes(status === 'REFUNDED' ? partly.id : fully.id), label);
        await row(sale).getByText(label, { exact: true }).waitFor();
        await page.getByRole('button', { name: 'Limpar' }).click();
      }
      await check(page, `${shape.name} transactions with refunds`);
      await shot(page, `${shape.name}-transactions`);

      // Auditoria: actions in words, also in its filter.
      await page.goto(`${server.url}/dashboard/audit`);
      await page.getByRole('cell', { name: 'Entrou', exact: true }).first().waitFor();
      await page.getByRole('cell', { name: 'Reembolso criado', exact: true }).first().waitFor();
      assert.ok((await page.getByLabel('Ação').locator('option').allInnerTexts()).includes('Entrou'));
      assert.doesNotMatch(await page.locator('main').innerText(), /session\.signed_in|refund\.created/);
      await check(page, `${shape.name} audit`);
      assert.deepEqual(problems, []);
      await page.context().close();
    });

    test(`at ${shape.name} width: a boleto's second copy; a paid sale's Comprovante, opened without a session; a link shared from its row`, async () => {
      const boleto = await sale(`Bruno ${shape.name}`, 12_345, 'BOLETO', false);
      const paid = await sale(`Carla ${shape.name}`, 4_990, 'PIX', true);
      const link = await api('/v2/payment-links', { amountCents: 5_990, description: `Camiseta ${shape.name}`, paymentMethods: ['PIX'] });
      const { page, problems } = await signedIn(shape);

      await page.goto(`${server.url}/dashboard/transactions/${boleto.id}`);
      const copy = page.getByRole('region', { name: 'Boleto' });
      const line = await copy.getByLabel('Linha digitável').inputValue();
      assert.equal(line.replace(/\D/g, ''), boleto.paymentDetails.boleto.digitableLine.replace(/\D/g, ''));
      assert.match(line, /^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
      await copy.getByRole('button', { name: 'Copiar' }).waitFor();
      await copy.getByRole('img', { name: `Código de barras: ${boleto.paymentDetails.boleto.barcode}` }).waitFor();
      assert.ok((await copy.innerText()).includes(boleto.paymentDetails.boleto.barcode), 'the 44 digits written out');
      const [year, month, day] = (boleto.paymentDetails.boleto.dueDate as string).split('-');
      assert.ok((await copy.innerText()).includes(`${day}/${month}/${year}`), 'the due date');
      // Imprimir boleto prints the sheet alone: the page marks itself for the print stylesheet while printing.
      await page.evaluate('window.print = () => { window.printedBoletoAlone = document.body.classList.contains("printing-boleto"); }');
      await copy.getByRole('button', { name: 'Imprimir boleto' }).click();
      assert.equal(await page.evaluate('window.printedBoletoAlone'), true);
      await page.emulateMedia({ media: 'print' });
      await page.evaluate('document.body.classList.add("printing-boleto")');
      assert.equal(await page.locator('nav#main-nav').isVisible(), false, 'the shell is not printed');
      assert.equal(await page.locator('.facts').first().isVisible(), false, "the sale's details are not printed");
      assert.equal(await page.getByRole('img', { name: /Código de barras/ }).isVisible(), true, 'the barcode is');
      await page.evaluate('document.body.classList.remove("printing-boleto")');
      await page.emulateMedia({ media: 'screen' });
      assert.equal(await page.getByRole('link', { name: 'Comprovante' }).count(), 0, 'no receipt before payment');
      await check(page, `${shape.name} boleto second copy`);
      await shot(page, `${shape.name}-boleto-second-copy`);

      // Comprovante: from the paid sale, printable, its address to copy or send.
      await page.goto(`${server.url}/dashboard/transactions/${paid.id}`);
      await page.getByRole('link', { name: 'Comprovante' }).click();
      await page.getByRole('heading', { name: 'Comprovante de pagamento', level: 1 }).waitFor();
      const facts = spaced(await page.locator('.facts').innerText());
      assert.match(facts, /R\$ 49,90/);
      assert.match(facts, /Carla .* · \*\*\*\.982\.247-\*\*/);
      assert.match(facts, /Loja Demo Ltda/);
      assert.ok(facts.includes(paid.id));
      assert.doesNotMatch(facts, /529\.982\.247-25|52998224725/);
      await page.getByRole('button', { name: 'Imprimir' }).waitFor();
      const url = await page.getByLabel('Link do comprovante').inputValue();
      assert.match(url, new RegExp(`/pay/receipts/${paid.id}/[A-Za-z0-9_-]{32}$`));
      assert.equal(await page.getByRole('link', { name: 'Enviar pelo WhatsApp' }).getAttribute('href'), `https://wa.me/?text=${encodeURIComponent(`Comprovante de pagamento: ${url}`)}`);
      await check(page, `${shape.name} receipt`);
      await shot(page, `${shape.name}-receipt`);
      const stranger = await newPage(browser, shape);
      await stranger.page.goto(url);
      await stranger.page.getByRole('heading', { name: 'Comprovante de pagamento', level: 1 }).waitFor();
      assert.match(await stranger.page.locator('.facts').innerText(), /Carla/);
      await stranger.page.goto(`${server.url}/pay/receipts/${paid.id}`);
      assert.doesNotMatch(await stranger.page.locator('body').innerText(), /Carla/);
      await stranger.page.context().close();

      // Links de pagamento: Compartilhar on the row of a link made earlier.
      await page.goto(`${server.url}/dashboard/links`);
      await page.getByRole('button', { name: `Compartilhar Camiseta ${shape.name}` }).click();
      const share = page.getByRole('dialog', { name: `Compartilhar “Camiseta ${shape.name}”` });
      assert.equal(await share.getByLabel('Endereço do link').inputValue(), link.url);
      await share.getByRole('button', { name: 'Copiar' }).waitFor();
      await share.getByRole('img', { name: 'QR Code do link de pagamento' }).waitFor();
      assert.equal(await share.getByRole('link', { name: 'Compartilhar no WhatsApp' }).getAttribute('href'), `https://wa.me/?text=${encodeURIComponent(`Camiseta ${shape.name} ${link.url}`)}`);
      await check(page, `${shape.name} link shared from its row`);
      await shot(page, `${shape.name}-link-shared`);
      await share.getByRole('button', { name: 'Fechar' }).click();
      assert.deepEqual(problems, []);
      await page.context().close();
    });

    test(`at ${shape.name} width: the two-step code field starts empty and is a one-time code; recovery codes stay whole`, async () => {
      const { page, problems } = await newPage(browser, shape);
      // The server's answer for a user with two-step verification, standing in for one: the page's own fields are under test.
      await page.route('**/dashboard/api/session', (route) =>
        route.request().method() === 'POST' ? route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ stage: 'totp' }) }) : route.fallback(),
      );
      await page.goto(`${server.url}/dashboard/login`);
      await page.getByLabel('E-mail').fill('demo@loja.example');
      await page.getByLabel('Senha').fill(adminPassword);
      await page.getByRole('button', { name: 'Entrar' }).click();
      const code = page.getByLabel('Código');
      await code.waitFor();
      assert.equal(await code.inputValue(), '', 'the code field does not inherit the e-mail');
      assert.equal(await code.getAttribute('autocomplete'), 'one-time-code');
      assert.equal(await code.getAttribute('inputmode'), 'numeric');
      assert.equal(await code.getAttribute('name'), 'totp-code');
      assert.equal(await page.getByLabel('E-mail').count(), 0, 'no e-mail field on the code step');
      await page.getByRole('button', { name: 'Usar um código de recuperação' }).click();
      assert.equal(await code.getAttribute('inputmode'), 'text');
      await check(page, `${shape.name} sign-in code`);

      // Ten recovery codes as Minha conta lists them: each code on one line, none past the screen.
      await page.evaluate(`(() => {
        const list = document.createElement('ol');
        list.className = 'codes mono';
        for (let i = 0; i < 10; i++) { const li = document.createElement('li'); li.textContent = 'k7wq-' + i + 'm3x-p9za-4hd2'; list.appendChild(li); }
        document.querySelector('main').appendChild(list);
      })()`);
      const lines = (await page.evaluate(`[...document.querySelectorAll('.codes li')].map((li) => { const r = document.createRange(); r.selectNodeContents(li); const rects = [...r.getClientRects()]; return { lines: new Set(rects.map((x) => Math.round(x.top))).size, right: Math.max(...rects.map((x) => x.right)) }; })`)) as { lines: number; right: number }[];
      for (const [i, l] of lines.entries()) {
        assert.equal(l.lines, 1, `recovery code ${i} breaks across lines`);
        assert.ok(l.right <= page.viewportSize()!.width, `recovery code ${i} runs off the screen`);
      }
      await shot(page, `${shape.name}-recovery-codes`);
      assert.deepEqual(problems, []);
      await page.context().close();
    });
  }

  test('a card sale in 3 installments shows them as charged on the sale: 1x de R$ 16,64 + 2x de R$ 16,63', async () => {
    const link = await api('/v2/payment-links', { amountCents: 4_990, description: 'Aula em 3x', paymentMethods: ['CREDIT_CARD'], maxInstallments: 3 });
    const { page, problems } = await signedIn(VIEWPORTS[0]);
    const buyer = await page.context().newPage();
    await buyer.goto(link.url);
    await buyer.getByLabel('Nome completo').fill('Maria da Silva');
    await buyer.getByLabel('CPF ou CNPJ').fill('529.982.247-25');
    await buyer.getByLabel('E-mail').fill('maria@example.com');
    await buyer.getByLabel('Parcelas').selectOption('3');
    await buyer.getByRole('button', { name: 'Continuar para o cartão' }).click();
    await buyer.locator('#card-pay:enabled').waitFor();
    const frame = buyer.frameLocator('#card-fields iframe');
    await frame.locator('#number').pressSequentially('4111111111111111');
    await frame.locator('#expiry').pressSequentially('1230');
    await frame.locator('#cvv').pressSequentially('123');
    await frame.locator('#holderName').pressSequentially('Maria da Silva');
    await buyer.locator('#card-pay').click();
    await buyer.getByRole('heading', { name: 'Pagamento confirmado' }).waitFor({ timeout: 20_000 });
    await buyer.close();
    const [sold] = ((await (await server.api(`/v2/transactions?paymentLinkId=${link.id}`)).json()) as Json).data;
    await page.goto(`${server.url}/dashboard/transactions/${sold.id}`);
    await page.locator('.facts').getByText(/1x de R\$\s16,64 \+ 2x de R\$\s16,63/).waitFor();
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('every page, in Portuguese and in English, shows no raw enum or event name (a developer’s event log keeps the type as secondary text)', async () => {
    const refunded = await sale('Walter Enum', 2_000, 'PIX', true);
    await api(`/v2/transactions/${refunded.id}/refunds`, { amountCents: 500 }, { 'idempotency-key': `walk-${refunded.id}` });
    const boleto = await sale('Walter Boleto', 2_000, 'BOLETO', false);
    await api('/v2/payment-links', { amountCents: 1_000, description: 'Link do passeio', paymentMethods: ['PIX', 'BOLETO', 'CREDIT_CARD'] });
    const { page, problems } = await signedIn(VIEWPORTS[0]);
    const pages = ['', '/transactions', `/transactions/${refunded.id}`, `/transactions/${boleto.id}`, `/transactions/${refunded.id}/receipt`, '/links', '/receivables', '/developers', '/team', '/audit', '/account'];
    for (const locale of ['pt-BR', 'en']) {
      await page.evaluate(`localStorage.setItem('svc-dashboard-locale', '${locale}')`);
      for (const path of pages) {
        await page.goto(`${server.url}/dashboard${path}`);
        await page.locator('main h1').first().waitFor();
        await page.waitForLoadState('networkidle');
        assert.equal(await page.locator('html').getAttribute('lang'), locale);
        // What a person reads: ids, keys and other developer text (class mono) aside, and e-mails and URLs, which have dots of their own.
        const text = String(
          await page.evaluate(`(() => {
            const main = document.querySelector('main').cloneNode(true);
            main.querySelectorAll('.mono').forEach((e) => e.remove());
            document.body.appendChild(main);
            const text = main.innerText;
            main.remove();
            return text;
          })()`),
        )
          .replace(/\S+@\S+/g, '')
          .replace(/https?:\/\/\S+/g, '');
        assert.doesNotMatch(text, RAW_ENUM, `${locale} ${path || '/'}: ${RAW_ENUM.exec(text)?.[0]}`);
        assert.doesNotMatch(text, EVENT_NAME, `${locale} ${path || '/'}: ${EVENT_NAME.exec(text)?.[0]}`);
      }
    }
    await page.evaluate(`localStorage.setItem('svc-dashboard-locale', 'pt-BR')`);
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
