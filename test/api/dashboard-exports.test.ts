/**
 * The dashboard's CSV exports (issue 35): the form Excel in Portuguese opens
 * (BOM, `;`, reais with a decimal comma, São Paulo times, the page's words,
 * named by the period) by default and the machine-readable one as
 * `?format=rfc4180`; look-alike formula starts neutralised; a period outside
 * 2000–2100 refused before any byte; one export at a time per user, shared
 * by every process through Redis when REDIS_URL is set.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { sessionCookieName } from '../../src/modules/users/index.js';
import { parseCsv } from '../helpers/csv.js';
import { engines } from '../helpers/db.js';
import { API, member, startDashboardApp, type DashboardTestApp } from '../helpers/dashboard.js';
import { assertError } from '../helpers/assert.js';
import { boletoIntent, cpf, pixIntent } from '../helpers/fixtures.js';

type Json = Record<string, any>;

const CAMARA = { name: 'Câmara São João', document: cpf('321654987'), email: 'camara@example.com' };
const LOOKALIKE = { name: '＝HYPERLINK("http://x.example","clique")', document: cpf('741852963') };

/** The excel form: the BOM, then `;` rows as objects by header. */
function excelRows(res: LightMyRequestResponse): { header: string[]; rows: Record<string, string>[] } {
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
  assert.deepEqual([...res.rawPayload.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 with a byte-order mark');
  const [header, ...rows] = parseCsv(res.rawPayload.subarray(3).toString('utf8'), ';');
  return { header: header!, rows: rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!]))) };
}

const filename = (res: LightMyRequestResponse) => /^attachment; filename="([^"]+)"$/.exec(String(res.headers['content-disposition']))?.[1];

for (const engine of engines()) {
  describe(`dashboard exports on ${engine}`, () => {
    let t: DashboardTestApp;
    const sales: Record<string, Json> = {};

    before(async () => {
      t = await startDashboardApp(engine);
      t.clock.set(new Date('2026-11-20T20:00:00.000Z')); // 17:00 in São Paulo
      const camara = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ amountCents: 123_456, buyer: CAMARA, referenceId: 'pedido-1', confirm: true }) });
      assert.equal(camara.statusCode, 201, camara.body);
      t.clock.advance(5 * 60_000 + 9_000);
      assert.equal((await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${camara.json().transaction.id}/pay` })).statusCode, 200);
      t.clock.advance(3_600_000);
      const lookalike = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: boletoIntent({ buyer: { ...LOOKALIKE, email: 'formula@example.com', address: boletoIntent().buyer.address }, referenceId: '﹦1+1', confirm: true }) });
      assert.equal(lookalike.statusCode, 201, lookalike.body);
      for (const [name, id] of [['camara', camara.json().transaction.id], ['lookalike', lookalike.json().transaction.id]] as const) {
        sales[name] = (await t.call({ method: 'GET', url: `/v2/transactions/${id}` })).json();
      }
    });
    after(async () => {
      await t.close();
    });

    test('Exportar CSV: UTF-8 with a BOM, `;`, reais with a decimal comma, São Paulo times, Portuguese words, named by the period', async () => {
      const res = await t.dash({ method: 'GET', url: '/transactions.csv', query: { from: '2026-11-01', to: '2026-11-30' } });
      const { header, rows } = excelRows(res);
      assert.equal(filename(res), 'transacoes-2026-11-01-a-2026-11-30.csv');
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.deepEqual(header, ['ID', 'Data', 'Pago em', 'Status', 'Forma de pagamento', 'Parcelas', 'Valor (R$)', 'Tarifa (R$)', 'Líquido (R$)', 'Reembolsado (R$)', 'Referência', 'Comprador', 'CPF ou CNPJ', 'E-mail', 'Link de pagamento']);
      assert.deepEqual(rows.map((r) => r.ID), [sales.lookalike!.id, sales.camara!.id], 'newest first');
      const camara = rows[1]!;
      const reais = (cents: number) => `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;
      assert.deepEqual(camara, {
        ID: sales.camara!.id,
        Data: '20/11/2026 17:00:00',
        'Pago em': '20/11/2026 17:05:09',
        Status: 'Pago',
        'Forma de pagamento': 'Pix',
        Parcelas: '1',
        'Valor (R$)': '1234,56',
        'Tarifa (R$)': reais(sales.camara!.feeCents),
        'Líquido (R$)': reais(sales.camara!.netAmountCents),
        'Reembolsado (R$)': '0,00',
        Referência: 'pedido-1',
        Comprador: 'Câmara São João',
        'CPF ou CNPJ': CAMARA.document,
        'E-mail': 'camara@example.com',
        'Link de pagamento': '',
      });
      assert.equal(rows[0]!.Status, 'Pendente');
      assert.equal(rows[0]!['Forma de pagamento'], 'Boleto');
      assert.equal(rows[0]!['Pago em'], '');
      // Without a period, the file is named by the day it was made; with only one end, by that end.
      assert.equal(filename(await t.dash({ method: 'GET', url: '/transactions.csv' })), 'transacoes-2026-11-20.csv');
      assert.equal(filename(await t.dash({ method: 'GET', url: '/transactions.csv', query: { from: '2026-11-20' } })), 'transacoes-desde-2026-11-20.csv');
    });

    test('in English when the page is: headers, statuses and the file name; the numbers stay in the Brazilian form', async () => {
      const res = await t.dash({ method: 'GET', url: '/transactions.csv', query: { lang: 'en', from: '2026-11-01', to: '2026-11-30' } });
      const { header, rows } = excelRows(res);
      assert.equal(filename(res), 'transactions-2026-11-01-to-2026-11-30.csv');
      assert.deepEqual(header.slice(0, 7), ['ID', 'Date', 'Paid at', 'Status', 'Payment method', 'Installments', 'Amount (R$)']);
      assert.deepEqual(rows.map((r) => [r.Status, r['Payment method'], r['Amount (R$)']]), [
        ['Pending', 'Boleto', reaisOf(sales.lookalike!.amountCents)],
        ['Paid', 'Pix', '1234,56'],
      ]);
    });

    test('?format=rfc4180: commas, no BOM, centavos, ISO UTC times, the API names and values', async () => {
      const res = await t.dash({ method: 'GET', url: '/transactions.csv', query: { format: 'rfc4180', from: '2026-11-01', to: '2026-11-30', lang: 'pt-BR' } });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.body.charCodeAt(0), 'i'.charCodeAt(0), 'no BOM');
      assert.equal(filename(res), 'transactions-2026-11-01-to-2026-11-30.csv');
      const [header, , camara] = parseCsv(res.body, ',');
      assert.deepEqual(header, ['id', 'createdAt', 'paidAt', 'status', 'paymentMethod', 'installments', 'amountCents', 'feeCents', 'netAmountCents', 'refundedCents', 'referenceId', 'buyerName', 'buyerDocument', 'buyerEmail', 'paymentLinkId']);
      assert.deepEqual(camara!.slice(0, 7), [sales.camara!.id, '2026-11-20T20:00:00.000Z', '2026-11-20T20:05:09.000Z', 'PAID', 'PIX', '1', '123456']);
      assert.equal(camara![11], 'Câmara São João');
    });

    test('the receivables: the same two forms, named by the period of expected dates', async () => {
      const res = await t.dash({ method: 'GET', url: '/receivables.csv', query: { from: '2026-11-01', to: '2027-12-31' } });
      const { header, rows } = excelRows(res);
      assert.equal(filename(res), 'recebiveis-2026-11-01-a-2027-12-31.csv');
      assert.deepEqual(header, ['ID', 'Transação', 'Recebedor (CPF ou CNPJ)', 'Papel', 'Parcela', 'Data prevista', 'Status', 'Pago em', 'Bruto (R$)', 'Tarifa (R$)', 'Líquido (R$)', 'Ajuste', 'Reembolso']);
      const lines = (await t.call({ method: 'GET', url: '/v2/receivables', query: { limit: '100' } })).json().data as Json[];
      assert.ok(lines.length > 0);
      assert.deepEqual(
        rows.map((r) => [r.ID, r.Papel, r['Data prevista'], r.Status, r['Bruto (R$)'], r['Líquido (R$)']]).sort(),
        lines
          .map((l) => [l.id, 'Vendedor', `${l.expectedOn.slice(8, 10)}/${l.expectedOn.slice(5, 7)}/${l.expectedOn.slice(0, 4)}`, l.status === 'PAID' ? 'Pago' : 'Pendente', reaisOf(l.grossAmountCents), reaisOf(l.amountCents)])
          .sort(),
      );
      const rfc = await t.dash({ method: 'GET', url: '/receivables.csv', query: { format: 'rfc4180' } });
      assert.equal(filename(rfc), 'receivables-2026-11-20.csv');
      const [rfcHeader, ...rfcRows] = parseCsv(rfc.body, ',');
      assert.equal(rfcHeader![0], 'id');
      assert.deepEqual(rfcRows.map((r) => Number(r[rfcHeader!.indexOf('amountCents')])).sort(), lines.map((l) => l.amountCents).sort());
    });

    test('look-alike formula starts (full-width ＝, small ﹦) are neutralised in both forms, the text otherwise kept', async () => {
      const excel = excelRows(await t.dash({ method: 'GET', url: '/transactions.csv' }));
      const row = excel.rows.find((r) => r.ID === sales.lookalike!.id)!;
      assert.equal(row.Comprador, `'${LOOKALIKE.name}`);
      assert.equal(row.Referência, "'﹦1+1");
      const rfc = await t.dash({ method: 'GET', url: '/transactions.csv', query: { format: 'rfc4180' } });
      assert.ok(rfc.body.includes(`"'＝HYPERLINK(""http://x.example"",""clique"")"`), rfc.body);
      assert.ok(rfc.body.includes(`"'﹦1+1"`), rfc.body);
    });

    test('a date outside 2000–2100 is 400 VALIDATION_ERROR naming the field, before any byte of an export; the ends themselves are taken', async () => {
      for (const url of ['/transactions.csv', '/receivables.csv', '/transactions', '/receivables']) {
        for (const [field, date] of [['from', '1999-12-31'], ['to', '2101-01-01'], ['from', '0001-01-01'], ['to', '9999-12-31']] as const) {
          const res = await t.dash({ method: 'GET', url, query: { [field]: date } });
          const body = assertError(res, 400, 'VALIDATION_ERROR', field, { exactly: true });
          assert.match(body.details![0]!.message, /2000-01-01.*2100-12-31/, `${url} ${field}=${date}`);
        }
        assertError(await t.dash({ method: 'GET', url, query: { from: '1900-01-01', to: '3000-01-01' } }), 400, 'VALIDATION_ERROR', ['from', 'to'], { exactly: true });
        const ends = await t.dash({ method: 'GET', url, query: { from: '2000-01-01', to: '2100-12-31' } });
        assert.equal(ends.statusCode, 200, `${url}: ${ends.body}`);
      }
    });

    test('one export at a time per user: a second one, of either kind, is 429 RATE_LIMITED before any byte; another user is not held; the slot is free again after', async () => {
      const transactions = t.services.transactions as unknown as { exportRows: (...args: unknown[]) => AsyncGenerator<unknown[]> };
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      let finish!: () => void;
      const gate = new Promise<void>((resolve) => (finish = resolve));
      const original = transactions.exportRows;
      // The first export's rows wait on the gate: the export is running, its client reading.
      transactions.exportRows = async function* () {
        started();
        await gate;
        yield [];
      };
      try {
        const first = t.dash({ method: 'GET', url: '/transactions.csv' });
        await running;
        for (const url of ['/transactions.csv', '/receivables.csv']) {
          const second = await t.dash({ method: 'GET', url });
          const body = assertError(second, 429, 'RATE_LIMITED');
          assert.equal(second.headers['retry-after'], '5');
          assert.equal(second.headers['content-disposition'], undefined);
          assert.match(body.message, /export/i);
        }
        t.as('finance');
        try {
          assert.equal((await t.dash({ method: 'GET', url: '/receivables.csv' })).statusCode, 200, 'another user exports meanwhile');
        } finally {
          t.as('admin');
        }
        finish();
        const done = await first;
        assert.equal(done.statusCode, 200, done.body);
        assert.equal(parseCsv(done.rawPayload.subarray(3).toString('utf8'), ';').length, 1, 'the header alone');
      } finally {
        transactions.exportRows = original;
      }
      assert.equal((await t.dash({ method: 'GET', url: '/transactions.csv' })).statusCode, 200, 'the slot was given back');
      assert.equal((await t.dash({ method: 'GET', url: '/receivables.csv' })).statusCode, 200);
    });
  });
}

function reaisOf(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

describe('one export at a time per user, with REDIS_URL: every process shares the slot', () => {
  let t: DashboardTestApp;
  before(async () => {
    t = await startDashboardApp('pglite');
  });
  after(async () => {
    await t.close();
  });

  test('an export running on one process makes the same user wait on another; the slot is shared back when it ends', async () => {
    const config = loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' });
    // Two processes over one database and one set of services, so the test's stand-in for the rows holds on both.
    const apps = [await buildApp({ ...t.deps, config }, t.services), await buildApp({ ...t.deps, config }, t.services)] as const;
    const transactions = t.services.transactions as unknown as { exportRows: (...args: unknown[]) => AsyncGenerator<unknown[]> };
    const original = transactions.exportRows;
    const cookie = `${sessionCookieName(config.publicApiUrl)}=${(await member(t, 'exporter@loja.example', 'finance')).cookie!}`;
    const get = (i: 0 | 1, url: string) => apps[i].inject({ method: 'GET', url: `${API}${url}`, headers: { cookie } });
    /** A transactions export on the first process, its rows held until `finish`. */
    const held = async () => {
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      let finish!: () => void;
      const gate = new Promise<void>((resolve) => (finish = resolve));
      transactions.exportRows = async function* () {
        started();
        await gate;
        yield [];
      };
      const response = get(0, '/transactions.csv');
      await running;
      return { finish, response };
    };
    try {
      // Each process counts in Redis once its connection is up (it holds its own slots alone while connecting).
      for (let n = 0; ; n++) {
        const first = await held();
        const other = await get(1, '/receivables.csv');
        first.finish();
        assert.equal((await first.response).statusCode, 200);
        if (other.statusCode === 429) break;
        assert.ok(n < 100, 'Redis did not become reachable');
        await sleep(20);
      }
      const first = await held();
      for (const url of ['/receivables.csv', '/transactions.csv?format=rfc4180']) {
        const other = await get(1, url);
        assertError(other, 429, 'RATE_LIMITED');
        assert.equal(other.headers['retry-after'], '5');
      }
      first.finish();
      assert.equal((await first.response).statusCode, 200);
      transactions.exportRows = original;
      // The release is sent as the stream ends; the other process sees it within moments.
      for (let n = 0; ; n++) {
        const again = await get(1, '/receivables.csv');
        if (again.statusCode === 200) break;
        assert.ok(n < 50, `the slot was not given back: ${again.body}`);
        await sleep(20);
      }
    } finally {
      transactions.exportRows = original;
      await Promise.all(apps.map((a) => a.close()));
    }
  });
});
