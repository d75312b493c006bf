/**
 * The dashboard's pages in real Chromium, served by a real `svc serve`
 * (compiled dist/), at 1280 and 390 px: the serving (HTML under its CSP,
 * assets, the JSON API's own 404, hidden from the OpenAPI document), then
 * every page driven by its labels, roles and names over a stand-in of the
 * JSON API (page.route, answering as docs/dashboard.md says), each checked
 * by axe-core (no serious or critical violation) and for sideways
 * scrolling. The flows against the real API are in dashboard-flows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { permissionsOf, type Role } from '../../src/modules/users/roles.js';
import { launchChromium } from '../helpers/chromium.js';
import { assertAccessible, assertNoSidewaysScroll, newPage, standInApi, VIEWPORTS, type Handler, type Viewport } from '../helpers/dashboard-browser.js';
import { startServer, type TestServer } from '../helpers/server.js';

const HOSTILE = '<img src=x onerror=alert(1)>';

function me(role: Role, extra: Record<string, unknown> = {}) {
  return {
    stage: 'signed-in',
    user: { id: 'usr_1', email: 'ana@loja.example', name: 'Ana Souza', totpEnabled: false },
    company: { id: 'cmp_1', name: 'Loja Demo Ltda' },
    role,
    permissions: permissionsOf(role),
    companies: [
      { id: 'cmp_1', name: 'Loja Demo Ltda', role },
      { id: 'cmp_2', name: 'Agência Dois', role: 'viewer' },
    ],
    environment: 'sandbox',
    csrfToken: 'csrf-token-1',
    totpSetupRequired: false,
    ...extra,
  };
}

const TRX = {
  id: 'trx_01',
  status: 'PAID',
  paymentMethod: 'PIX',
  installments: 1,
  amountCents: 123_456,
  feeCents: 1_234,
  netAmountCents: 122_222,
  refundedCents: 0,
  currency: 'BRL',
  paymentIntentId: 'pi_01',
  referenceId: 'pedido-1',
  description: 'Curso online',
  buyer: { name: HOSTILE, document: '52998224725', email: 'maria@example.com' },
  paymentDetails: {},
  split: { receivables: [] },
  metadata: { canal: HOSTILE },
  createdAt: '2026-11-20T15:00:00.000Z',
  paidAt: '2026-11-20T15:01:00.000Z',
};

const RECEIVABLE = { recipientDocument: '52998224725', role: 'SELLER', installment: 1, grossAmountCents: 123_456, feeCents: 1_234, amountCents: 122_222, expectedOn: '2026-11-21', status: 'PENDING' };

const days = Array.from({ length: 30 }, (_, i) => ({ date: new Date(Date.UTC(2026, 9, 28 + i)).toISOString().slice(0, 10), amount: (i % 7) * 10_000 }));

/** The JSON API as docs/dashboard.md describes it, for an admin (or `role`). */
function api(role: Role = 'admin', overrides: Handler = () => undefined): Handler {
  const session = me(role);
  return (req) => {
    const overridden = overrides(req);
    if (overridden) return overridden;
    const { method, path } = req;
    const key = `${method} ${path}`;
    if (key === 'GET /session') return { body: session };
    if (key === 'POST /session') return { body: { stage: 'totp' } };
    if (key === 'POST /session/totp') return { body: session };
    if (key === 'DELETE /session') return { status: 204 };
    if (key === 'GET /home')
      return {
        body: {
          today: { count: 3, amount: 123_456 },
          last30Days: { count: 40, amount: 9_876_543 },
          pending: { count: 2, amount: 5_000 },
          refunded: { count: 1, amount: 1_000 },
          chargedBack: { count: 0, amount: 0 },
          receivables: { toReceive: 555_555, paid: 444_444 },
          daily: days,
        },
      };
    if (key === 'GET /transactions') return { body: { data: [TRX, { ...TRX, id: 'trx_02', status: 'PENDING', paymentMethod: 'BOLETO', buyer: { name: 'João Lima' } }], hasMore: true, nextCursor: 'trx_02' } };
    if (key === 'GET /transactions/trx_01')
      return {
        body: {
          transaction: TRX,
          receivables: [RECEIVABLE],
          refunds: [],
          timeline: [{ event: { id: 'evt_1', type: 'transaction.paid', createdAt: TRX.paidAt }, deliveries: [{ webhookId: 'wh_1', url: 'https://loja.example/hooks', attempt: 1, status: 'SUCCEEDED', httpStatus: 200, at: TRX.paidAt }] }],
        },
      };
    if (key === 'POST /transactions/trx_01/refunds') return { status: 201, body: { id: 'rf_1', amountCents: (req.body as { amount: number }).amount, status: 'SUCCEEDED' } };
    if (key === 'GET /payment-links')
      return { body: { data: [{ id: 'plink_1', status: 'ACTIVE', url: 'http://127.0.0.1/pay/plink_1', amountCents: 15_990, description: HOSTILE, paymentMethods: ['PIX', 'CREDIT_CARD'], maxInstallments: 3, paymentsCount: 2, createdAt: TRX.createdAt }], hasMore: false } };
    if (key === 'POST /payment-links')
      return { status: 201, body: { id: 'plink_2', status: 'ACTIVE', url: 'http://127.0.0.1/pay/plink_2', ...(req.body as object), paymentsCount: 0, createdAt: TRX.createdAt, qrCode: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=' } };
    if (key === 'GET /receivables') return { body: { data: [{ ...RECEIVABLE, transactionId: 'trx_01' }], hasMore: false, totals: { amount: 122_222, byStatus: { PENDING: 122_222 } } } };
    if (key === 'GET /api-keys') return { body: { data: [{ id: 'key_1', name: 'Loja virtual', prefix: 'sk_test_ab12', scopes: null, createdAt: TRX.createdAt, lastUsedAt: null }] } };
    if (key === 'POST /api-keys') return { status: 201, body: { id: 'key_2', name: 'Nova', prefix: 'sk_test_cd34', key: 'sk_test_cd34_secret_shown_once' } };
    if (key === 'GET /webhooks')
      return {
        body: {
          data: [
            { id: 'wh_1', url: 'https://loja.example/hooks', events: ['transaction.paid'], active: true, status: 'enabled' },
            { id: 'wh_3', url: 'https://loja.example/fora-do-ar', events: ['transaction.paid'], active: true, status: 'disabled', disabledAt: TRX.createdAt },
          ],
        },
      };
    if (key === 'POST /webhooks/wh_3/enable') return { body: { id: 'wh_3', url: 'https://loja.example/fora-do-ar', events: ['transaction.paid'], active: true, status: 'enabled', disabledAt: null } };
    if (key === 'POST /webhooks') return { status: 201, body: { id: 'wh_2', url: 'https://loja.example/novo', events: ['transaction.paid'], active: true, secret: 'whsec_shown_once' } };
    if (key === 'GET /events') return { body: { data: [{ id: 'evt_1', type: 'transaction.paid', createdAt: TRX.paidAt }], hasMore: false } };
    if (key === 'GET /team')
      return {
        body: {
          members: [
            { userId: 'usr_1', email: 'ana@loja.example', name: 'Ana Souza', role: 'admin', totpEnabled: false },
            { userId: 'usr_2', email: 'bia@loja.example', name: HOSTILE, role: 'finance', totpEnabled: true },
          ],
          requireTotp: false,
        },
      };
    if (key === 'POST /team/invitations') return { status: 201, body: { id: 'inv_1', url: 'http://127.0.0.1/dashboard/invitation#tok_abc', expiresAt: TRX.createdAt } };
    if (key === 'GET /team/invitations') return { body: { data: [{ id: 'inv_0', email: 'pendente@loja.example', role: 'viewer', createdAt: TRX.createdAt, expiresAt: TRX.paidAt }] } };
    if (key === 'GET /audit') return { body: { data: [{ id: 'aud_1', at: TRX.createdAt, userId: 'usr_1', email: 'ana@loja.example', action: 'session.signed_in', target: null, ip: '203.0.113.9', details: null }], hasMore: false } };
    if (key === 'POST /account/totp') return { body: { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/x', qrCode: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=' } };
    if (key === 'POST /account/totp/confirm') return { body: { recoveryCodes: Array.from({ length: 10 }, (_, i) => `rc-${i}-abcd`) } };
    return undefined;
  };
}

describe('dashboard pages', () => {
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    server = await startServer({ env: { RATE_LIMIT_PER_SECOND: '10000' } });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    if (server) assert.deepEqual(await server.stop(), { code: 0, signal: null });
  });

  test('served under /dashboard with a strict CSP and a nonce per response; the JSON API keeps its own 404; hidden from the OpenAPI document', async () => {
    const nonces = new Set<string>();
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/login', '/dashboard/transactions/trx_123?status=PAID']) {
      const res = await fetch(server.url + path);
      assert.equal(res.status, 200, path);
      assert.match(String(res.headers.get('content-type')), /^text\/html/);
      const csp = String(res.headers.get('content-security-policy'));
      const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
      assert.ok(nonce, csp);
      nonces.add(nonce);
      for (const part of ["default-src 'none'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'"]) assert.ok(csp.includes(part), `${part} in ${csp}`);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      const html = await res.text();
      assert.ok(html.includes(`<script nonce="${nonce}" src="/dashboard/assets/dashboard.js" defer></script>`), html);
      assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>|\sstyle=|\son\w+=/i, 'no inline script, style or handler');
      assert.equal(res.headers.get('cache-control'), 'no-store');
    }
    assert.equal(nonces.size, 4, 'a new nonce for every response');
    const missing = await fetch(`${server.url}/dashboard/api/no-such-route`);
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { code: string }).code, 'NOT_FOUND');
    const script = await fetch(`${server.url}/dashboard/assets/dashboard.js`);
    assert.equal(script.status, 200);
    assert.match(String(script.headers.get('content-type')), /^application\/javascript/);
    assert.doesNotMatch(await script.text(), /\beval\(|new Function\(/);
    const style = await fetch(`${server.url}/dashboard/assets/dashboard.css`);
    assert.match(String(style.headers.get('content-type')), /^text\/css/);
    assert.equal((await fetch(`${server.url}/dashboard/assets/../../package.json`)).status, 404);
    assert.equal((await fetch(`${server.url}/dashboard/assets/nothing.js`)).status, 404);
    const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    assert.deepEqual(Object.keys(openapi.paths).filter((p) => p.startsWith('/dashboard')), []);
  });

  for (const shape of VIEWPORTS) {
    test(`at ${shape.name} width: sign-in with two steps, every page, its dialogs, and sign-out`, async () => {
      const { page, problems } = await newPage(browser, shape);
      let signedIn = false;
      const calls = await standInApi(page, api('admin', ({ method, path }) => (method === 'GET' && path === '/session' && !signedIn ? { status: 401, body: { code: 'UNAUTHORIZED', message: 'Entre para continuar' } } : undefined)));
      const check = async (what: string) => {
        await assertAccessible(page, `${shape.name} ${what}`);
        await assertNoSidewaysScroll(page, `${shape.name} ${what}`);
      };

      // Without a session, any page goes to sign-in.
      await page.goto(`${server.url}/dashboard/transactions`);
      await page.waitForURL('**/dashboard/login');
      assert.equal(await page.locator('html').getAttribute('lang'), 'pt-BR');
      await check('sign-in');
      // The English switch, remembered across a reload.
      await page.getByRole('button', { name: 'English' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await page.getByLabel('Password').waitFor();
      await page.reload();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), 'en');
      await page.getByRole('button', { name: 'Português' }).click();

      await page.getByLabel('E-mail').fill('ana@loja.example');
      await page.getByLabel('Senha').fill('uma senha longa o bastante');
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.getByLabel('Código').fill('123456');
      await check('sign-in code');
      signedIn = true;
      await page.getByRole('button', { name: 'Verificar' }).click();

      // Início
      await page.getByRole('heading', { name: 'Início', level: 1 }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/dashboard');
      assert.equal(await page.title(), 'Início · Loja Demo Ltda');
      const cards = await page.locator('.cards').innerText();
      assert.match(cards, /R\$\s1\.234,56/);
      assert.match(cards, /A receber\s+R\$\s5\.555,55/);
      assert.match(cards, /Recebido\s+R\$\s4\.444,44/);
      assert.equal(await page.locator('svg[role="img"] rect.bar').count(), 30);
      assert.match(String(await page.getByRole('img', { name: /Valor pago por dia/ }).getAttribute('aria-labelledby')), /\S+ \S+/);
      assert.match(String(await page.locator('.chart desc').textContent()), /^Total de R\$\s/);
      assert.ok((await page.getByText('Sandbox (testes)').count()) > 0, 'the environment is shown');
      assert.equal(await page.getByRole('combobox', { name: 'Empresa' }).inputValue(), 'cmp_1', 'the company switcher, for a user of two companies');
      await check('home');

      const go = async (name: string) => {
        if (shape.name === 'phone') {
          const menu = page.getByRole('button', { name: 'Menu' });
          assert.equal(await page.getByRole('link', { name }).isVisible(), false, 'the navigation is closed on a phone');
          await menu.click();
          assert.equal(await menu.getAttribute('aria-expanded'), 'true');
        }
        await page.getByRole('navigation', { name: 'Navegação principal' }).getByRole('link', { name, exact: true }).click();
        await page.getByRole('heading', { name, level: 1 }).waitFor();
      };
      for (const name of ['Início', 'Transações', 'Links de pagamento', 'Recebíveis', 'Desenvolvedores', 'Equipe', 'Auditoria', 'Minha conta']) {
        const link = page.getByRole('link', { name, exact: true, includeHidden: true });
        assert.equal(await link.count(), 1, name);
      }

      // Transações: a hostile buyer name is text; the search goes into the address and the CSV link.
      await go('Transações');
      assert.equal(await page.evaluate('document.activeElement.id'), 'content', 'the focus moves to the new page');
      await page.getByRole('cell', { name: HOSTILE, exact: true }).waitFor();
      assert.equal(await page.locator('img[src="x"]').count(), 0);
      await page.getByLabel('Buscar').fill('529.982.247-25');
      await page.getByLabel('Status').selectOption('PAID');
      await page.getByRole('button', { name: 'Filtrar' }).click();
      await page.waitForURL(/q=529/);
      const csv = new URL(String(await page.getByRole('link', { name: 'Exportar CSV' }).getAttribute('href')), server.url);
      assert.equal(csv.pathname, '/dashboard/api/transactions.csv');
      assert.equal(csv.searchParams.get('q'), '529.982.247-25');
      assert.equal(csv.searchParams.get('status'), 'PAID');
      assert.equal(csv.searchParams.get('lang'), 'pt-BR', "the page's language, for the export's words");
      const listed = calls.filter((c) => c.path === '/transactions').at(-1);
      assert.ok(listed);
      await check('transactions');
      await page.getByRole('button', { name: 'Próxima página' }).click();
      await page.getByRole('button', { name: 'Página anterior' }).waitFor({ state: 'visible' });
      await page.getByRole('link', { name: 'trx_01' }).click();

      // A sale: its fields as text, the timeline's delivery, and a refund sent once with one key for the dialog.
      await page.getByRole('heading', { name: 'Venda trx_01' }).waitFor();
      assert.match(await page.locator('.facts').innerText(), /<img src=x onerror=alert\(1\)>/);
      assert.match(await page.locator('.timeline').innerText(), /https:\/\/loja\.example\/hooks/);
      await check('sale');
      await page.getByRole('button', { name: 'Reembolsar' }).click();
      const dialog = page.getByRole('dialog', { name: 'Reembolsar venda' });
      await dialog.getByLabel('Valor').fill('10,00');
      await dialog.getByLabel('Motivo').fill('Pedido do cliente');
      await check('refund dialog');
      await dialog.getByRole('button', { name: 'Confirmar reembolso' }).dblclick();
      await page.getByText('Reembolso de R$').waitFor();
      const refunds = calls.filter((c) => c.method === 'POST' && c.path === '/transactions/trx_01/refunds');
      assert.ok(refunds.length >= 1);
      assert.equal(new Set(refunds.map((c) => c.headers['idempotency-key'])).size, 1, 'one Idempotency-Key for the dialog');
      assert.deepEqual(refunds[0]!.body, { amount: 1000, reason: 'Pedido do cliente' });
      assert.equal(refunds[0]!.headers['x-csrf-token'], 'csrf-token-1');

      // Links de pagamento: Novo link → URL, copy, QR code and WhatsApp.
      await go('Links de pagamento');
      await page.getByRole('link', { name: HOSTILE }).waitFor();
      await check('links');
      await page.getByRole('button', { name: 'Novo link' }).click();
      const linkDialog = page.getByRole('dialog', { name: 'Novo link de pagamento' });
      await linkDialog.getByLabel('Descrição').fill('Camiseta');
      await linkDialog.getByLabel('Valor').fill('1.234,56');
      await linkDialog.getByLabel('Boleto').uncheck();
      await linkDialog.getByLabel('Parcelas máximas (cartão)').selectOption('3');
      await linkDialog.getByLabel('Pagamentos máximos (opcional)').fill('5');
      await check('new link dialog');
      await linkDialog.getByRole('button', { name: 'Criar link' }).click();
      const created = page.getByRole('dialog', { name: 'Link criado' });
      assert.equal(await created.getByLabel('Endereço do link').inputValue(), 'http://127.0.0.1/pay/plink_2');
      await created.getByRole('img', { name: 'QR Code do link de pagamento' }).waitFor();
      assert.equal(await created.getByRole('link', { name: 'Compartilhar no WhatsApp' }).getAttribute('href'), `https://wa.me/?text=${encodeURIComponent('Camiseta http://127.0.0.1/pay/plink_2')}`);
      assert.deepEqual(calls.filter((c) => c.method === 'POST' && c.path === '/payment-links').at(-1)?.body, { description: 'Camiseta', amountCents: 123_456, paymentMethods: ['CREDIT_CARD', 'PIX'], maxInstallments: 3, maxPayments: 5 });
      await check('link created');
      await created.getByRole('button', { name: 'Fechar' }).click();

      await go('Recebíveis');
      await page.getByRole('region', { name: 'Totais' }).waitFor();
      assert.match(await page.getByRole('region', { name: 'Totais' }).innerText(), /R\$\s1\.222,22/);
      assert.equal(new URL(String(await page.getByRole('link', { name: 'Exportar CSV' }).getAttribute('href')), server.url).pathname, '/dashboard/api/receivables.csv');
      await check('receivables');

      // Desenvolvedores: a key and a webhook secret shown once.
      await go('Desenvolvedores');
      await check('developers');
      await page.getByRole('button', { name: 'Nova chave' }).click();
      const keyDialog = page.getByRole('dialog', { name: 'Nova chave de API' });
      await keyDialog.getByLabel('Nome').fill('Nova');
      await keyDialog.getByRole('button', { name: 'Criar chave' }).click();
      assert.equal(await page.getByRole('dialog', { name: 'Chave criada' }).getByLabel('Chave').inputValue(), 'sk_test_cd34_secret_shown_once');
      await page.getByRole('dialog', { name: 'Chave criada' }).getByRole('button', { name: 'Fechar' }).click();
      assert.equal(await page.getByText('sk_test_cd34_secret_shown_once').count(), 0, 'the key is gone once the dialog closes');
      await page.getByRole('button', { name: 'Novo webhook' }).click();
      const hookDialog = page.getByRole('dialog', { name: 'Novo webhook' });
      await hookDialog.getByLabel('URL').fill('https://loja.example/novo');
      await hookDialog.getByRole('button', { name: 'Criar webhook' }).click();
      assert.equal(await page.getByRole('dialog', { name: 'Webhook criado' }).getByLabel('Segredo de assinatura').inputValue(), 'whsec_shown_once');
      await page.getByRole('dialog', { name: 'Webhook criado' }).getByRole('button', { name: 'Fechar' }).click();
      // A webhook disabled after its failures says so; Reativar asks the server with the session's CSRF token.
      await page.getByText('Desativado por falhas').waitFor();
      await page.getByRole('button', { name: 'Reativar https://loja.example/fora-do-ar' }).click();
      await page.getByText('Webhook reativado: o que aguardava será enviado agora.').waitFor();
      assert.ok(calls.some((c) => c.method === 'POST' && c.path === '/webhooks/wh_3/enable' && c.headers['x-csrf-token'] === 'csrf-token-1'));

      // Equipe: invite (the URL to copy), a hostile member name as text.
      await go('Equipe');
      await page.getByRole('cell', { name: HOSTILE, exact: true }).waitFor();
      await check('team');
      await page.getByRole('button', { name: 'Convidar' }).click();
      const invite = page.getByRole('dialog', { name: 'Convidar para a equipe' });
      await invite.getByLabel('E-mail').fill('novo@loja.example');
      await invite.getByLabel('Papel').selectOption({ label: 'Financeiro' });
      await invite.getByRole('button', { name: 'Gerar convite' }).click();
      assert.equal(await invite.getByLabel('Endereço do convite').inputValue(), 'http://127.0.0.1/dashboard/invitation#tok_abc');
      assert.deepEqual(calls.filter((c) => c.path === '/team/invitations').at(-1)?.body, { email: 'novo@loja.example', role: 'finance' });
      await invite.getByRole('button', { name: 'Fechar' }).click();

      await go('Auditoria');
      await page.getByRole('cell', { name: '203.0.113.9' }).waitFor();
      await check('audit');

      // Minha conta: two-step verification → QR code, secret, Código, Ativar → 10 recovery codes.
      await go('Minha conta');
      await page.getByLabel('Senha', { exact: true }).fill('uma senha longa o bastante');
      await page.getByRole('button', { name: 'Ativar verificação em duas etapas' }).click();
      await page.getByRole('img', { name: 'QR Code da verificação em duas etapas' }).waitFor();
      assert.ok((await page.getByText('JBSWY3DPEHPK3PXP').count()) > 0);
      await page.getByLabel('Código').fill('123456');
      await check('account two-step');
      await page.getByRole('button', { name: 'Ativar', exact: true }).click();
      await page.getByRole('list', { name: 'Códigos de recuperação' }).waitFor();
      assert.equal(await page.getByRole('list', { name: 'Códigos de recuperação' }).getByRole('listitem').count(), 10);

      // Sair ends the session on the server and goes to sign-in.
      if (shape.name === 'phone') await page.getByRole('button', { name: 'Menu' }).click();
      signedIn = false;
      await page.getByRole('button', { name: 'Sair' }).click();
      await page.waitForURL('**/dashboard/login');
      assert.ok(calls.some((c) => c.method === 'DELETE' && c.path === '/session' && c.headers['x-csrf-token'] === 'csrf-token-1'));
      assert.deepEqual(problems, [], 'no script error or CSP violation');
      await page.context().close();
    });
  }

  test('an invitation: a new user (Nome, Senha, Confirme a senha) and an existing one (only Senha); an unknown token', async () => {
    for (const shape of VIEWPORTS) {
      const { page, problems } = await newPage(browser, shape);
      const calls = await standInApi(
        page,
        api('finance', ({ method, path, body }) => {
          const token = (body as { token?: string } | undefined)?.token;
          if (method === 'POST' && path === '/invitations/lookup' && token === 'tok_ok') return { body: { email: 'bia@loja.example', companyName: 'Loja Demo Ltda', role: 'finance' } };
          if (method === 'POST' && path === '/invitations/accept' && token === 'tok_ok') return { body: me('finance') };
          return undefined;
        }),
      );
      await page.goto(`${server.url}/dashboard/invitation#tok_ok`);
      await page.getByLabel('Nome').fill('Bia Costa');
      await page.getByLabel('Senha', { exact: true }).fill('curta');
      await page.getByLabel('Confirme a senha').fill('curta');
      await page.getByRole('button', { name: 'Ativar acesso' }).click();
      await page.getByText('A senha precisa de pelo menos 12 caracteres.').waitFor();
      await assertAccessible(page, `${shape.name} invitation`);
      await assertNoSidewaysScroll(page, `${shape.name} invitation`);
      await page.getByLabel('Senha', { exact: true }).fill('uma senha longa o bastante');
      await page.getByLabel('Confirme a senha').fill('uma senha longa o bastante');
      await page.getByRole('button', { name: 'Ativar acesso' }).click();
      await page.getByRole('heading', { name: 'Início', level: 1 }).waitFor();
      assert.deepEqual(calls.find((c) => c.path === '/invitations/accept')?.body, { token: 'tok_ok', name: 'Bia Costa', password: 'uma senha longa o bastante', passwordConfirmation: 'uma senha longa o bastante' });
      // The token travels in bodies only, never in a path or a query.
      assert.ok(calls.every((c) => !c.path.includes('tok_ok')));
      // A finance member's shell: no Equipe, no Desenvolvedores.
      assert.equal(await page.getByRole('link', { name: 'Equipe' }).count(), 0);
      assert.equal(await page.getByRole('link', { name: 'Desenvolvedores' }).count(), 0);

      await page.goto(`${server.url}/dashboard/invitation#tok_ok`);
      await page.getByLabel('Já tenho acesso ao painel com este e-mail').check();
      assert.equal(await page.getByLabel('Nome').count(), 0);
      assert.equal(await page.getByLabel('Confirme a senha').count(), 0);
      await page.getByLabel('Senha').fill('a senha que ela já tem');
      await assertAccessible(page, `${shape.name} invitation, existing user`);
      await page.getByRole('button', { name: 'Ativar acesso' }).click();
      await page.getByRole('heading', { name: 'Início', level: 1 }).waitFor();
      assert.deepEqual(calls.filter((c) => c.method === 'POST').at(-1)?.body, { token: 'tok_ok', password: 'a senha que ela já tem' });

      await page.goto(`${server.url}/dashboard/invitation#tok_gone`);
      await page.getByText('Este convite não existe, já foi usado ou expirou. Peça um novo.').waitFor();
      assert.deepEqual(problems, []);
      await page.context().close();
    }
  });

  test("a viewer's pages hide every change; a 403 is said on the page; a 401 mid-session goes to sign-in", async () => {
    const { page, problems } = await newPage(browser, VIEWPORTS[0] as Viewport);
    let live = true;
    await standInApi(
      page,
      api('viewer', ({ method, path }) => {
        if (!live) return { status: 401, body: { code: 'UNAUTHORIZED', message: 'Sessão encerrada' } };
        if (method === 'GET' && path === '/events') return { status: 403, body: { code: 'FORBIDDEN', message: 'Proibido' } };
        return undefined;
      }),
    );
    await page.goto(`${server.url}/dashboard/links`);
    await page.getByRole('heading', { name: 'Links de pagamento', level: 1 }).waitFor();
    await page.getByRole('cell', { name: 'Ativo' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Novo link' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: /Cancelar link/ }).count(), 0);
    assert.equal(await page.getByRole('link', { name: 'Equipe' }).count(), 0);
    await page.getByRole('link', { name: 'Desenvolvedores' }).click();
    await page.getByRole('cell', { name: 'Loja virtual' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Nova chave' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: /Revogar/ }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Novo webhook' }).count(), 0);
    await page.getByText('Seu papel não permite esta ação. Proibido').waitFor();
    await page.getByRole('link', { name: 'Transações' }).click();
    await page.getByRole('link', { name: 'trx_01' }).click();
    await page.getByRole('heading', { name: 'Venda trx_01' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Reembolsar' }).count(), 0);
    // The team page by its address: the role's limit is said, not a blank page.
    live = false;
    await page.getByRole('link', { name: 'Início' }).click();
    await page.waitForURL('**/dashboard/login');
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
