import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TEXTS } from '../../../web/dashboard/texts.js';
import { brazilianDate, csvFileName, METHOD_LABELS, reais, receivablesLayout, saoPauloDateTime, STATUS_LABELS, transactionsLayout } from './rules.js';
import type { ExportedTransaction } from '../transactions/index.js';

const SALE: ExportedTransaction = {
  id: 'trx_1',
  createdAt: '2026-11-28T17:05:09.123Z',
  paidAt: null,
  status: 'PAID',
  paymentMethod: 'CREDIT_CARD',
  installments: 3,
  amountCents: 123456,
  feeCents: 4938,
  netAmountCents: 118518,
  refundedCents: 0,
  referenceId: '－1+1',
  buyerName: 'Câmara',
  buyerDocument: '52998224725',
  buyerEmail: null,
  paymentLinkId: null,
};

/** A line's cells, as Excel splits it (the fixtures hold no quoted field). */
const cellsOf = (line: string): string[] => {
  assert.ok(line.endsWith('\r\n'));
  return line.slice(0, -2).split(';');
};

test('reais: a decimal comma, no thousands separator, a leading minus', () => {
  assert.equal(reais(123456), '1234,56');
  assert.equal(reais(100), '1,00');
  assert.equal(reais(5), '0,05');
  assert.equal(reais(0), '0,00');
  assert.equal(reais(-1230), '-12,30');
  assert.equal(reais(-5), '-0,05');
  assert.equal(reais(999_999_999_999), '9999999999,99');
});

test('times on São Paulo clocks as Excel pt-BR reads them (DST of past years included); dates DD/MM/AAAA', () => {
  assert.equal(saoPauloDateTime('2026-11-28T17:05:09.123Z'), '28/11/2026 14:05:09');
  assert.equal(saoPauloDateTime('2026-11-29T02:59:59.000Z'), '28/11/2026 23:59:59');
  assert.equal(saoPauloDateTime('2026-01-01T00:00:00.000Z'), '31/12/2025 21:00:00');
  // Summer time until 2019: -02:00 in January 2018.
  assert.equal(saoPauloDateTime('2018-01-15T12:00:00.000Z'), '15/01/2018 10:00:00');
  // The minute's prefix is kept for the next instant of the same minute only.
  assert.equal(saoPauloDateTime('2018-01-15T12:00:59.999Z'), '15/01/2018 10:00:59');
  assert.equal(saoPauloDateTime('2018-01-15T12:01:00.000Z'), '15/01/2018 10:01:00');
  assert.equal(saoPauloDateTime('2026-11-28T17:05:09Z'), '28/11/2026 14:05:09');
  assert.equal(brazilianDate('2026-12-05'), '05/12/2026');
});

test('the excel form: words in the language, amounts in reais, São Paulo times; the rfc4180 form as the API writes', () => {
  const pt = transactionsLayout('excel', 'pt-BR');
  assert.deepEqual(pt.header.slice(0, 7), ['ID', 'Data', 'Pago em', 'Status', 'Forma de pagamento', 'Parcelas', 'Valor (R$)']);
  assert.deepEqual(cellsOf(pt.line(SALE)), ['trx_1', '28/11/2026 14:05:09', '', 'Pago', 'Cartão', '3', '1234,56', '49,38', '1185,18', '0,00', `"'－1+1"`, 'Câmara', '52998224725', '', '']);
  const en = transactionsLayout('excel', 'en');
  assert.deepEqual(en.header.slice(0, 7), ['ID', 'Date', 'Paid at', 'Status', 'Payment method', 'Installments', 'Amount (R$)']);
  assert.deepEqual(cellsOf(en.line(SALE)).slice(3, 5), ['Paid', 'Card']);
  const rfc = transactionsLayout('rfc4180', 'pt-BR');
  assert.equal(rfc.dialect.separator, ',');
  assert.deepEqual(rfc.header.slice(0, 7), ['id', 'createdAt', 'paidAt', 'status', 'paymentMethod', 'installments', 'amountCents']);
  assert.equal(rfc.line(SALE), `trx_1,2026-11-28T17:05:09.123Z,,PAID,CREDIT_CARD,3,123456,4938,118518,0,"'－1+1",Câmara,52998224725,,\r\n`);

  const line = { id: 'rcv_1', transactionId: 'trx_1', recipientDocument: '52998224725', role: 'SELLER', installment: 0, expectedOn: '2026-12-28', status: 'PENDING', grossAmountCents: -500, feeCents: -20, amountCents: -480, adjustment: 'REFUND', refundId: 'rf_1' };
  assert.deepEqual(cellsOf(receivablesLayout('excel', 'pt-BR').line(line)), ['rcv_1', 'trx_1', '52998224725', 'Vendedor', '0', '28/12/2026', 'Pendente', '', '-5,00', '-0,20', '-4,80', 'Reembolso', 'rf_1']);
  assert.equal(receivablesLayout('rfc4180', 'en').line(line), 'rcv_1,trx_1,52998224725,SELLER,0,2026-12-28,PENDING,,-500,-20,-480,REFUND,rf_1\r\n');
});

test("the statuses and methods are worded as the dashboard's pages word them", () => {
  for (const [value, label] of Object.entries(STATUS_LABELS)) assert.deepEqual(label, TEXTS[`status_${value}` as keyof typeof TEXTS], value);
  for (const [value, label] of Object.entries(METHOD_LABELS)) assert.deepEqual(label, TEXTS[`method_${value}` as keyof typeof TEXTS], value);
});

test('the file is named after the period it holds, in ASCII', () => {
  assert.equal(csvFileName('transactions', { from: '2026-11-01', to: '2026-11-30' }, '2026-11-28', 'pt-BR'), 'transacoes-2026-11-01-a-2026-11-30.csv');
  assert.equal(csvFileName('receivables', { from: '2026-11-01' }, '2026-11-28', 'pt-BR'), 'recebiveis-desde-2026-11-01.csv');
  assert.equal(csvFileName('transactions', { to: '2026-11-30' }, '2026-11-28', 'pt-BR'), 'transacoes-ate-2026-11-30.csv');
  assert.equal(csvFileName('transactions', {}, '2026-11-28', 'pt-BR'), 'transacoes-2026-11-28.csv');
  assert.equal(csvFileName('transactions', { from: '2026-11-01', to: '2026-11-30' }, '2026-11-28', 'en'), 'transactions-2026-11-01-to-2026-11-30.csv');
  assert.equal(csvFileName('receivables', {}, '2026-11-28', 'en'), 'receivables-2026-11-28.csv');
});
