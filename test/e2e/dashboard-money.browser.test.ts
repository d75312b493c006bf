/**
 * The dashboard's money side (issue 35) in real Chromium, at 1280 and 390 px,
 * over a stand-in of the JSON API answering as the route tests show it does
 * (test/api/dashboard-money.test.ts): Início's A receber by date, Recebido and
 * Tarifas do mês, its cards linking to the filtered list, the chart's axes;
 * Recebíveis with Bruto, Tarifa and Líquido labelled, "1/3", the net amount
 * on the screen at 390 px; the empty states' sentences. axe-core on each.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { permissionsOf } from '../../src/modules/users/roles.js';
import { launchChromium } from '../helpers/chromium.js';
import { assertAccessible, assertNoSidewaysScroll, newPage, standInApi, VIEWPORTS, type Handler } from '../helpers/dashboard-browser.js';
import { startServer, type TestServer } from '../helpers/server.js';

const SESSION = {
  stage: 'signed-in',
  user: { id: 'usr_1', email: 'ana@loja.example', name: 'Ana Souza', totpEnabled: false },
  company: { id: 'cmp_1', name: 'Loja Demo Ltda' },
  role: 'admin',
  permissions: permissionsOf('admin'),
  companies: [{ id: 'cmp_1', name: 'Loja Demo Ltda', role: 'admin' }],
  environment: 'sandbox',
  csrfToken: 'csrf-token-1',
  totpSetupRequired: false,
};

const TODAY = '2026-11-28';
const days = (amount: (i: number) => number) =>
  Array.from({ length: 30 }, (_, i) => ({ date: new Date(Date.UTC(2026, 9, 30 + i)).toISOString().slice(0, 10), amount: amount(i) }));
const NONE = { count: 0, amount: 0 };

const HOME = {
  today: { count: 2, amount: 25_000 },
  last30Days: { count: 40, amount: 1_234_500 },
  pending: { count: 1, amount: 4_200 },
  refunded: { count: 1, amount: 2_500 },
  chargedBack: NONE,
  receivables: {
    toReceive: 987_654,
    paid: 543_210,
    receivedThisMonth: 123_456,
    next: [
      { date: '2026-11-30', amount: 98_765 },
      { date: '2026-12-28', amount: 300_000 },
    ],
  },
  fees: { thisMonth: 4_321 },
  daily: days((i) => (i % 5) * 61_700),
};
const EMPTY_HOME = { ...HOME, today: NONE, last30Days: NONE, pending: NONE, refunded: NONE, receivables: { toReceive: 0, paid: 0, receivedThisMonth: 0, next: [] }, fees: { thisMonth: 0 }, daily: days(() => 0) };

const line = (installment: number, expectedOn: string, status: string) => ({
  id: `rcv_0${installment}`,
  transactionId: 'trx_01kbz5f7c0a9x3m2n4p6q8r0s2',
  recipientDocument: '11222333000181',
  role: 'SELLER',
  installment,
  installmentCount: 3,
  grossAmountCents: 10_000,
  feeCents: 349,
  amountCents: 9_651,
  expectedOn,
  status,
});
const RECEIVABLES = {
  data: [line(1, '2026-12-28', 'PENDING'), line(2, '2027-01-27', 'PENDING'), line(3, '2027-02-26', 'PENDING')],
  hasMore: false,
  nextCursor: null,
  totals: { amount: 28_953, byStatus: { PENDING: 28_953, PAID: 0 } },
};

/** Where a locator's box is, against the viewport's width. */
async function assertOnScreen(page: Page, target: Locator, what: string): Promise<void> {
  const box = await target.boundingBox();
  assert.ok(box, `${what} has a box`);
  const width = page.viewportSize()!.width;
  assert.ok(box.x >= 0 && box.x + box.width <= width, `${what} is within the ${width} px viewport: ${JSON.stringify(box)}`);
}

describe('the dashboard money side', () => {
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

  for (const shape of VIEWPORTS) {
    test(`at ${shape.name} width: A receber, Recebido and Tarifas do mês; a card to its filtered list; Recebíveis labelled with 1/3; the empty states`, async () => {
      const { page, problems } = await newPage(browser, shape);
      let empty = false;
      const api: Handler = ({ method, path }) => {
        const key = `${method} ${path}`;
        if (key === 'GET /session') return { body: SESSION };
        if (key === 'GET /home') return { body: empty ? EMPTY_HOME : HOME };
        if (key === 'GET /transactions') return { body: { data: [], hasMore: false, nextCursor: null } };
        if (key === 'GET /receivables') return { body: empty ? { data: [], hasMore: false, nextCursor: null, totals: { amount: 0, byStatus: { PENDING: 0, PAID: 0 } } } : RECEIVABLES };
        return undefined;
      };
      const calls = await standInApi(page, api);
      const check = async (what: string) => {
        await assertAccessible(page, `${shape.name} ${what}`);
        await assertNoSidewaysScroll(page, `${shape.name} ${what}`);
      };

      // Início: the money side.
      await page.goto(`${server.url}/dashboard`);
      await page.getByRole('heading', { name: 'Início', level: 1 }).waitFor();
      const card = (name: string) => page.locator('.card').filter({ has: page.getByRole('heading', { name, level: 2 }) });
      assert.match(await card('A receber').innerText(), /A receber\s+R\$\s9\.876,54/);
      const next = card('A receber').getByRole('list', { name: 'Próximas datas a receber' });
      assert.match(await next.innerText(), /30\/11\/2026\s+R\$\s987,65\s+28\/12\/2026\s+R\$\s3\.000,00/);
      assert.match(await card('Recebido').innerText(), /Recebido\s+R\$\s1\.234,56\s+neste mês; R\$\s5\.432,10 no total/);
      assert.match(await card('Tarifas do mês').innerText(), /Tarifas do mês\s+R\$\s43,21/);
      assert.equal(await page.getByText('Pago', { exact: true }).count(), 0, 'no "Pago" where the balance is');
      // The chart: reais on its y axis, dates under it, still an image with its text alternative and its table.
      const yTicks = (await page.locator('.chart-y li').allInnerTexts()).map((s) => s.replace(/\s/g, ' '));
      assert.deepEqual(yTicks, ['R$ 0', 'R$ 1.000', 'R$ 2.000', 'R$ 3.000', 'R$ 4.000']);
      assert.deepEqual(await page.locator('.chart-x li').allInnerTexts(), ['30/10', '06/11', '13/11', '20/11', '27/11']);
      await page.getByRole('img', { name: /Valor pago por dia.*Total de R\$/ }).waitFor();
      await assertOnScreen(page, page.locator('.chart-y li').last(), 'the top tick');
      await page.getByText('Ver os valores por dia').click();
      await page.getByRole('cell', { name: /R\$\s2\.468,00/ }).first().waitFor();
      await check('home');

      // Contestados opens the charged-back sales of the chart's 30 days.
      const chargedBack = await card('Contestados').getByRole('link', { name: 'Contestados' }).getAttribute('href');
      assert.match(chargedBack!, /^\/dashboard\/transactions\?status=CHARGED_BACK&from=\d{4}-\d{2}-\d{2}$/);

      // The paid-today card opens Transações filtered by PAID and today's period.
      await card('Hoje').getByRole('link', { name: 'Hoje' }).click();
      await page.getByRole('heading', { name: 'Transações', level: 1 }).waitFor();
      const filtered = new URL(page.url());
      assert.equal(filtered.pathname, '/dashboard/transactions');
      assert.deepEqual(Object.fromEntries(filtered.searchParams), { status: 'PAID', from: TODAY, to: TODAY });
      assert.equal(await page.getByRole('combobox', { name: /^Status/ }).inputValue(), 'PAID');
      assert.equal(await page.locator('input[name="from"]').inputValue(), TODAY);
      assert.ok(calls.some((c) => c.path === '/transactions' && c.method === 'GET'));
      await page.goBack();

      // A receber opens Recebíveis filtered by PENDING: by date, each amount labelled, "1/3".
      await card('A receber').getByRole('link', { name: 'A receber' }).click();
      await page.getByRole('heading', { name: 'Recebíveis', level: 1 }).waitFor();
      assert.equal(new URL(page.url()).search, '?status=PENDING');
      const rows = page.locator('table.stacked tbody tr');
      await rows.first().waitFor();
      assert.equal(await rows.count(), 3);
      const first = rows.first();
      assert.equal(await first.getByText('1/3', { exact: true }).count(), 1);
      if (shape.name === 'desktop') {
        for (const name of ['Bruto', 'Tarifa', 'Líquido', 'Parcela']) await page.getByRole('columnheader', { name }).waitFor();
        assert.equal(await first.locator('.cell-label').first().isVisible(), false, 'the header row names the columns');
      } else {
        // A stack of labelled values: each amount under its name, on the screen.
        const text = (await first.innerText()).replace(/\s+/g, ' ');
        for (const pair of [/Parcela 1\/3/, /Bruto R\$ 100,00/, /Tarifa R\$ 3,49/, /Líquido R\$ 96,51/]) assert.match(text, pair);
      }
      const net = first.locator('td').last().locator('.cell-value');
      assert.match(await net.innerText(), /R\$\s96,51/);
      await assertOnScreen(page, net, 'the net amount');
      await assertOnScreen(page, first.locator('td').nth(5).locator('.cell-value'), 'the gross amount');
      await check('receivables');

      // Nothing yet: sentences, not a blank chart or an empty table.
      empty = true;
      await page.reload();
      await page.getByText('Nenhum recebível encontrado. Eles aparecem aqui quando uma venda é paga.').waitFor();
      await check('receivables, empty');
      await page.goto(`${server.url}/dashboard`);
      await page.getByText('Nenhuma venda paga nos últimos 30 dias.').waitFor();
      assert.equal(await page.locator('.chart svg').count(), 0, 'no blank chart');
      await card('A receber').getByText('Nada a receber.').waitFor();
      await check('home, empty');

      assert.deepEqual(problems, []);
      await page.context().close();
    });
  }
});
