/**
 * The dashboard's money and developer pages in Chromium against the real
 * service (`svc serve`, compiled dist/): the demo admin signs in and finds a
 * sale by each search key, exports a CSV equal to the API's list, refunds once
 * through a double click, creates a payment link that a buyer pays on its
 * page, creates and revokes a key, sees a webhook's secret once, pays a
 * pending Pix with Simular pagamento; each role's
 * limits on sales, links and keys are checked against the server with the
 * member's own session; a stale page after a role change is refused; another
 * company's sale is not found, even by its id. axe-core checks the pages with
 * real data at 1280 and 390 px. (The people's side is dashboard-identity.)
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { activate, asThePage, assertAccessible, assertNoSidewaysScroll, invite, MEMBER_PASSWORD, newPage, signIn, VIEWPORTS } from '../helpers/dashboard-browser.js';
import { cnpj } from '../helpers/fixtures.js';
import { apiClient, pollEverySecond, startServer, type TestServer } from '../helpers/server.js';

type Json = Record<string, any>;

const DESKTOP = VIEWPORTS[0];

describe('dashboard money and developer pages against the service', () => {
  let server: TestServer;
  let browser: Browser;
  let adminPassword: string;
  const sales: Json[] = [];

  before(async () => {
    server = await startServer({ env: { RATE_LIMIT_PER_SECOND: '10000', DASHBOARD_SIGNIN_PER_IP_PER_MINUTE: '1000', PAY_PAGE_PER_IP_PER_MINUTE: '1000', WEBHOOK_ALLOW_LOOPBACK: 'true', DASHBOARD_TEST_PASSWORD_HASHES: 'true' } });
    browser = await launchChromium();
    adminPassword = fs.readFileSync(path.join(server.dataDir, 'dashboard-password.txt'), 'utf8').trim();
    const buyers = [
      ['Maria Aparecida da Silva', '52998224725', 'maria@example.com', 15_990],
      ['João Pereira Lima', '11144477735', 'joao@example.com', 4_500],
    ] as const;
    for (const [i, [name, document, email, amountCents]] of buyers.entries()) {
      const intent = (await (await server.api('/v2/payment-intents', { body: { amountCents, paymentMethod: 'PIX', referenceId: `pedido-${700 + i}`, buyer: { name, document, email } } })).json()) as Json;
      const trx = (await (await server.api(`/v2/payment-intents/${intent.id}/confirm`, { method: 'POST', headers: { 'idempotency-key': `${intent.id}-c` } })).json()) as Json;
      await server.api(`/v2/sandbox/transactions/${trx.id}/pay`, { method: 'POST' });
      sales.push({ ...trx, intentId: intent.id, name, document, email, referenceId: `pedido-${700 + i}` });
    }
  });

  after(async () => {
    await browser?.close();
    if (server) assert.deepEqual(await server.stop(), { code: 0, signal: null });
  });

  test('the demo admin: search by each key, the CSV equals the list, a refund sent once, a link paid on its page, a key revoked, a webhook secret once', async () => {
    const { page, problems } = await newPage(browser, DESKTOP);
    await signIn(page, server.url, 'demo@loja.example', adminPassword);
    await page.getByRole('heading', { name: 'Início', level: 1 }).waitFor();
    assert.match(await page.locator('.cards').innerText(), /R\$\s204,90/, "today's paid sales");
    await assertAccessible(page, 'home with data');

    // Transações: every search key finds Maria's sale and not João's.
    await page.getByRole('link', { name: 'Transações' }).click();
    const maria = sales[0]!;
    for (const q of [maria.id, maria.intentId, maria.referenceId, '529.982.247-25', '52998224725', maria.email, 'aparecida silva', 'MARI da']) {
      await page.getByLabel('Buscar').fill(q);
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/dashboard/api/transactions' && new URL(r.url()).searchParams.get('q') === q);
      await page.getByRole('button', { name: 'Filtrar' }).click();
      assert.deepEqual(((await (await answered).json()) as Json).data.map((t: Json) => t.id), [maria.id], `search ${q}`);
      await page.getByRole('link', { name: maria.id }).waitFor();
      await page.getByRole('link', { name: sales[1]!.id }).waitFor({ state: 'detached' });
    }
    await assertAccessible(page, 'transactions with data');

    // Exportar CSV with the filters: the same sales as the API's list.
    await page.getByRole('button', { name: 'Limpar' }).click();
    await page.getByLabel('Status').selectOption('PAID');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await page.waitForURL(/status=PAID/);
    // The form Excel in Portuguese opens: a byte-order mark, `;`, the page's words, amounts in reais.
    const href = String(await page.getByRole('link', { name: 'Exportar CSV' }).getAttribute('href'));
    assert.equal(new URL(href, server.url).searchParams.get('lang'), 'pt-BR');
    const exported = await page.request.get(server.url + href);
    const bytes = await exported.body();
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 with a BOM');
    const list = await page.request.get(`${server.url}/dashboard/api/transactions?status=PAID&limit=100`);
    const listed = ((await list.json()) as Json).data as Json[];
    const rows = bytes.subarray(3).toString('utf8').trim().split(/\r?\n/).map((r) => r.split(';'));
    const header = rows[0]!;
    const [idColumn, statusColumn, amountColumn] = ['ID', 'Status', 'Valor (R$)'].map((name) => header.indexOf(name));
    assert.ok(idColumn! >= 0 && statusColumn! >= 0 && amountColumn! >= 0, header.join(';'));
    assert.deepEqual(rows.slice(1).map((r) => r[idColumn!]).sort(), listed.map((t) => t.id).sort());
    assert.deepEqual(new Set(rows.slice(1).map((r) => r[statusColumn!])), new Set(['Pago']));
    const amountOf = new Map(listed.map((t) => [t.id, `${Math.floor(t.amountCents / 100)},${String(t.amountCents % 100).padStart(2, '0')}`]));
    for (const r of rows.slice(1)) assert.equal(r[amountColumn!], amountOf.get(r[idColumn!]));
    assert.equal(listed.length, 2);
    // In English, the page asks for English words: headers and statuses.
    await page.getByRole('button', { name: 'English' }).click();
    const englishHref = String(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href'));
    assert.equal(new URL(englishHref, server.url).searchParams.get('lang'), 'en');
    const english = (await (await page.request.get(server.url + englishHref)).text()).replace(/^\uFEFF/, '').trim().split(/\r?\n/).map((r) => r.split(';'));
    assert.deepEqual(english[0]!.slice(0, 4), ['ID', 'Date', 'Paid at', 'Status']);
    assert.deepEqual(new Set(english.slice(1).map((r) => r[3])), new Set(['Paid']));
    await page.getByRole('button', { name: 'Português' }).click();
    await page.getByRole('link', { name: 'Exportar CSV' }).waitFor();

    // A refund: a double click on Confirmar reembolso refunds 10,00 once.
    await page.getByRole('link', { name: maria.id }).click();
    await page.getByRole('button', { name: 'Reembolsar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reembolsar venda' });
    await dialog.getByLabel('Valor').fill('10,00');
    await dialog.getByLabel('Motivo').fill('Pedido do cliente');
    await dialog.getByRole('button', { name: 'Confirmar reembolso' }).dblclick();
    await page.getByText(/Reembolso de R\$\s10,00/).waitFor();
    const after = (await (await server.api(`/v2/transactions/${maria.id}`)).json()) as Json;
    assert.equal(after.refundedCents, 1_000, 'refunded once');
    await assertAccessible(page, 'sale with a refund');

    // Links de pagamento: created on the page, paid on its own page by a buyer.
    await page.getByRole('link', { name: 'Links de pagamento' }).click();
    await page.getByRole('button', { name: 'Novo link' }).click();
    const linkDialog = page.getByRole('dialog', { name: 'Novo link de pagamento' });
    await linkDialog.getByLabel('Descrição').fill('Camiseta azul');
    await linkDialog.getByLabel('Valor').fill('59,90');
    await linkDialog.getByRole('button', { name: 'Criar link' }).click();
    const url = await page.getByRole('dialog', { name: 'Link criado' }).getByLabel('Endereço do link').inputValue();
    assert.match(url, /\/pay\/plink_/);
    await page.getByRole('dialog', { name: 'Link criado' }).getByRole('img', { name: 'QR Code do link de pagamento' }).waitFor();
    await page.getByRole('dialog', { name: 'Link criado' }).getByRole('button', { name: 'Fechar' }).click();
    const buyer = await page.context().newPage();
    await buyer.goto(url);
    await buyer.locator('#tab-PIX').click();
    await buyer.locator('#buyer-name').fill('Paula Souza');
    await buyer.locator('#buyer-document').fill('390.533.447-05');
    await buyer.locator('#buyer-email').fill('paula@example.com');
    await buyer.locator('#submit').click();
    await buyer.locator('#pix-step').waitFor({ state: 'visible' });
    const linkId = url.split('/pay/')[1]!;
    const [paid] = ((await (await server.api(`/v2/transactions?paymentLinkId=${linkId}`)).json()) as Json).data;
    await server.api(`/v2/sandbox/transactions/${paid.id}/pay`, { method: 'POST' });
    await buyer.close();
    await page.reload();
    await page.getByRole('link', { name: 'Camiseta azul' }).waitFor();
    assert.equal(await page.getByRole('row', { name: /Camiseta azul/ }).getByRole('link', { name: '1', exact: true }).count(), 1, 'one payment');

    // Desenvolvedores: a key that works until revoked; a webhook's secret shown once.
    await page.getByRole('link', { name: 'Desenvolvedores' }).click();
    await page.getByRole('button', { name: 'Nova chave' }).click();
    await page.getByRole('dialog', { name: 'Nova chave de API' }).getByLabel('Nome').fill('Integração ERP');
    await page.getByRole('button', { name: 'Criar chave' }).click();
    const key = await page.getByRole('dialog', { name: 'Chave criada' }).getByLabel('Chave').inputValue();
    await page.getByRole('dialog', { name: 'Chave criada' }).getByRole('button', { name: 'Fechar' }).click();
    assert.equal((await apiClient(server.url, key)('/v2/transactions')).status, 200);
    await page.getByRole('button', { name: 'Revogar Integração ERP' }).click();
    await page.getByRole('dialog', { name: /Revogar a chave/ }).getByRole('button', { name: 'Revogar chave' }).click();
    await page.getByRole('cell', { name: 'Revogada' }).waitFor();
    assert.notEqual(await pollEverySecond(async () => (await apiClient(server.url, key)('/v2/transactions')).status === 401, 6_000), undefined, 'refused within 5 s');

    await page.getByRole('button', { name: 'Novo webhook' }).click();
    await page.getByRole('dialog', { name: 'Novo webhook' }).getByLabel('URL').fill('https://127.0.0.1:8443/hook');
    await page.getByRole('button', { name: 'Criar webhook' }).click();
    const secret = await page.getByRole('dialog', { name: 'Webhook criado' }).getByLabel('Segredo de assinatura').inputValue();
    assert.match(secret, /^whsec_/);
    await page.getByRole('dialog', { name: 'Webhook criado' }).getByRole('button', { name: 'Fechar' }).click();
    await page.reload();
    await page.getByRole('button', { name: 'Entregas https://127.0.0.1:8443/hook' }).waitFor();
    assert.equal(await page.getByText(secret).count(), 0);
    assert.doesNotMatch(await (await page.request.get(`${server.url}/dashboard/api/webhooks`)).text(), /whsec_/);
    await assertAccessible(page, 'developers with data');

    // Simular pagamento (sandbox): a pending Pix paid from its page.
    const intent = (await (await server.api('/v2/payment-intents', { body: { amountCents: 2_500, paymentMethod: 'PIX', referenceId: 'pedido-pendente', buyer: { name: 'Rita Pendente', document: '11144477735', email: 'rita@example.com' } } })).json()) as Json;
    const pending = (await (await server.api(`/v2/payment-intents/${intent.id}/confirm`, { method: 'POST', headers: { 'idempotency-key': `${intent.id}-c` } })).json()) as Json;
    await page.goto(`${server.url}/dashboard/transactions/${pending.id}`);
    await page.locator('.facts .pill').getByText('Pendente', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Simular pagamento' }).click();
    await page.locator('.facts .pill').getByText('Pago', { exact: true }).waitFor();
    assert.equal(((await (await server.api(`/v2/transactions/${pending.id}`)).json()) as Json).status, 'PAID');
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('each role refused by the server on sales, links and keys with its own session; a stale link dialog after a role change; Sair', async () => {
    const admin = await newPage(browser, DESKTOP);
    await signIn(admin.page, server.url, 'demo@loja.example', adminPassword);
    await admin.page.getByRole('link', { name: 'Equipe' }).click();
    // Each role's limits: a change the page would not offer, sent with the page's own session, is 403.
    const forbidden: Record<string, [string, string, unknown][]> = {
      Financeiro: [['POST', '/api-keys', { name: 'x' }], ['POST', '/team/invitations', { email: 'x@loja.example', role: 'admin' }]],
      Desenvolvimento: [['POST', '/payment-links', { description: 'x', amountCents: 1_000, paymentMethods: ['PIX'] }], ['POST', `/transactions/${sales[1]!.id}/refunds`, { amount: 100 }]],
      Leitura: [['POST', '/api-keys', { name: 'x' }], ['POST', '/payment-links', { description: 'x', amountCents: 1_000, paymentMethods: ['PIX'] }], ['POST', `/transactions/${sales[1]!.id}/refunds`, { amount: 100 }]],
    };
    let financePage: Page | undefined;
    for (const [role, calls] of Object.entries(forbidden)) {
      const email = `${role.toLowerCase()}@loja.example`;
      const url = await invite(admin.page, email, role);
      const member = await newPage(browser, DESKTOP);
      await activate(member.page, server.url, url, `Pessoa ${role}`);
      assert.equal(await member.page.getByRole('link', { name: 'Equipe' }).count(), 0, role);
      for (const [method, pathname, body] of calls) {
        const answer = await asThePage(member.page, server.url, method, pathname, body);
        assert.equal(answer.status, 403, `${role} ${method} ${pathname}: ${JSON.stringify(answer.json)}`);
      }
      if (role === 'Financeiro') financePage = member.page;
      else await member.page.context().close();
    }
    assert.equal(((await (await server.api(`/v2/transactions/${sales[1]!.id}`)).json()) as Json).refundedCents, 0, 'nothing was refunded');

    // A stale page: finance opens the link dialog, the admin makes them read-only, the creation is refused.
    await financePage!.getByRole('link', { name: 'Links de pagamento' }).click();
    await financePage!.getByRole('button', { name: 'Novo link' }).click();
    await admin.page.reload();
    await admin.page.getByRole('combobox', { name: 'Papel de Pessoa Financeiro' }).selectOption({ label: 'Leitura' });
    await admin.page.getByText('Papel alterado.').waitFor();
    const stale = financePage!.getByRole('dialog', { name: 'Novo link de pagamento' });
    await stale.getByLabel('Descrição').fill('Não deve existir');
    await stale.getByLabel('Valor').fill('10,00');
    await stale.getByRole('button', { name: 'Criar link' }).click();
    await stale.getByRole('alert').getByText(/Seu papel não permite esta ação/).waitFor();
    const links = ((await (await server.api('/v2/payment-links?limit=100')).json()) as Json).data;
    assert.equal(links.filter((l: Json) => l.description === 'Não deve existir').length, 0);

    // Sair ends the session on the server.
    await financePage!.keyboard.press('Escape');
    await financePage!.getByRole('button', { name: 'Sair' }).click();
    await financePage!.waitForURL('**/dashboard/login');
    assert.equal((await financePage!.request.get(`${server.url}/dashboard/api/session`)).status(), 401);
    await assertAccessible(admin.page, 'team with members');
    await financePage!.context().close();
    assert.deepEqual(admin.problems, []);
    await admin.page.context().close();
  });

  test('another company sees none of ours, even by id; a member of both switches company', async () => {
    // Tenant isolation: the admin of another company finds none of this company's sales, even by id.
    const other = await server.cli('company', 'create', '--name', 'Outra Loja', '--document', cnpj('452219060001'), '--json');
    assert.equal(other.code, 0, other.stderr);
    const otherInvite = await server.cli('user', 'invite', '--company', (other.json as Json).id, '--email', 'dona@outra.example', '--role', 'admin', '--json');
    const stranger = await newPage(browser, DESKTOP);
    await activate(stranger.page, server.url, (otherInvite.json as Json).url, 'Dona Outra');
    assert.equal((await stranger.page.request.get(`${server.url}/dashboard/api/transactions/${sales[0]!.id}`)).status(), 404);
    assert.equal((await (await stranger.page.request.get(`${server.url}/dashboard/api/transactions?q=${sales[0]!.id}`)).json() as Json).data.length, 0);
    await stranger.page.goto(`${server.url}/dashboard/transactions/${sales[0]!.id}`);
    await stranger.page.getByRole('alert').waitFor();
    assert.equal(await stranger.page.getByText(sales[0]!.name).count(), 0);

    // Invited to ours too: an existing user confirms with the password alone, then switches between the two companies.
    const both = await server.cli('user', 'invite', '--company', server.companyId!, '--email', 'dona@outra.example', '--role', 'viewer', '--json');
    const url = new URL((both.json as Json).url);
    await stranger.page.goto(server.url + url.pathname + url.hash);
    // The page cannot know the e-mail has a user (the lookup does not say): the person says so.
    await stranger.page.getByLabel('Já tenho acesso ao painel com este e-mail').check();
    assert.equal(await stranger.page.getByLabel('Nome').count(), 0);
    assert.equal(await stranger.page.getByLabel('Confirme a senha').count(), 0);
    await stranger.page.getByLabel('Senha').fill(MEMBER_PASSWORD);
    await stranger.page.getByRole('button', { name: 'Ativar acesso' }).click();
    await stranger.page.getByRole('heading', { name: 'Início', level: 1 }).waitFor();
    const company = stranger.page.getByRole('combobox', { name: 'Empresa' });
    assert.equal(await company.locator('option').count(), 2);
    await company.selectOption({ label: 'Outra Loja' });
    // The switch is done when the page names the other company (PUT /session/company answered).
    await stranger.page.waitForFunction(() => (globalThis as any).document.title === 'Início · Outra Loja');
    await stranger.page.getByRole('link', { name: 'Transações' }).click();
    await stranger.page.getByText('Nada encontrado.').waitFor();
    await company.selectOption({ label: 'Loja Demo Ltda' });
    await stranger.page.waitForFunction(() => (globalThis as any).document.title === 'Início · Loja Demo Ltda');
    await stranger.page.getByRole('link', { name: 'Transações' }).click();
    await stranger.page.getByRole('link', { name: sales[0]!.id }).waitFor();
    await stranger.page.context().close();
  });

  test('at phone width with real data: Início, Transações and Desenvolvedores pass axe and never scroll sideways', async () => {
    const { page, problems } = await newPage(browser, VIEWPORTS[1]);
    await signIn(page, server.url, 'demo@loja.example', adminPassword);
    await page.getByRole('heading', { name: 'Início', level: 1 }).waitFor();
    await page.locator('.cards').waitFor();
    await assertAccessible(page, 'phone home');
    await assertNoSidewaysScroll(page, 'phone home');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Transações' }).click();
    await page.getByRole('link', { name: sales[0]!.id }).waitFor();
    await assertAccessible(page, 'phone transactions');
    await assertNoSidewaysScroll(page, 'phone transactions');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Desenvolvedores' }).click();
    const eventLog = page.getByRole('region', { name: 'Registro de eventos' });
    await eventLog.getByRole('cell', { name: /^evt_/ }).first().waitFor();
    await assertAccessible(page, 'phone developers');
    await assertNoSidewaysScroll(page, 'phone developers');
    // The event log's ids wrap, so its type and time columns are on the screen, not past the edge of their box.
    const box = eventLog.locator('.table-wrap');
    const { scrollWidth, clientWidth } = await box.evaluate((e) => ({ scrollWidth: e.scrollWidth, clientWidth: e.clientWidth }));
    assert.ok(scrollWidth <= clientWidth, `the event log is ${scrollWidth}px wide in a ${clientWidth}px box`);
    // Each event in words, its type under it for developers.
    assert.ok(await eventLog.getByRole('cell', { name: /^(Venda criada|Pagamento confirmado) transaction\./ }).first().isVisible());
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
