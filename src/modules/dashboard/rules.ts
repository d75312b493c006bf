/**
 * The CSV exports' columns (docs/dashboard.md "CSV exports"), one line per
 * transaction or receivable line, in two forms:
 *
 * - `excel` (the default, what **Exportar CSV** downloads): the dialect Excel
 *   in Portuguese opens (csv.ts), headers and statuses in the page's language,
 *   amounts in reais with a decimal comma and no thousands separator
 *   (`1234,56`, `-12,30`), times in São Paulo as `DD/MM/AAAA HH:MM:SS` and
 *   dates as `DD/MM/AAAA` (the forms Excel pt-BR reads as dates and times;
 *   an ISO time with `T` and an offset stays text there);
 * - `rfc4180`: names in English as the API spells its fields, amounts in
 *   centavos, times ISO 8601 UTC, statuses as the API's values.
 *
 * The Brazilian number and date forms are kept in English too: the language
 * changes the words, while the numbers are read by the seller's Excel, set to Brazil.
 */
import type { Language } from '../../lib/i18n/language.js';
import type { Text } from '../../lib/i18n/text.js';
import { saoPauloOffsetMinutes } from '../../lib/sao-paulo-date.js';
import type { ExportedTransaction } from '../transactions/index.js';
import { csvCell, csvLine, EXCEL, RFC4180, type Cell, type CsvDialect } from './csv.js';

export const CSV_FORMATS = ['excel', 'rfc4180'] as const;
export type CsvFormat = (typeof CSV_FORMATS)[number];

type Raw = string | number | null | undefined;
type Kind = 'text' | 'count' | 'cents' | 'time' | 'date';

interface Column<T> {
  /** The header of the rfc4180 form: the API's field. */
  name: string;
  /** The header of the excel form. */
  label: Text;
  kind: Kind;
  value: (row: T) => Raw;
  /** The words of an enum's values in the excel form (a value without one is written as it is). */
  labels?: Readonly<Record<string, Text>>;
}

const text = (ptBR: string, en: string): Text => ({ 'pt-BR': ptBR, en });

/** As the dashboard's pages say them (web/dashboard/texts.ts `status_…`, `method_…`; a test keeps them equal). */
export const STATUS_LABELS: Readonly<Record<string, Text>> = {
  PENDING: text('Pendente', 'Pending'),
  PAID: text('Pago', 'Paid'),
  FAILED: text('Recusado', 'Failed'),
  CANCELED: text('Cancelado', 'Canceled'),
};
export const METHOD_LABELS: Readonly<Record<string, Text>> = {
  CREDIT_CARD: text('Cartão', 'Card'),
  PIX: text('Pix', 'Pix'),
  BOLETO: text('Boleto', 'Boleto'),
};
const ROLE_LABELS: Readonly<Record<string, Text>> = {
  SELLER: text('Vendedor', 'Seller'),
  CUSTOM_SPLIT_RECIPIENT: text('Recebedor da divisão', 'Split recipient'),
};
const ADJUSTMENT_LABELS: Readonly<Record<string, Text>> = {
  REFUND: text('Reembolso', 'Refund'),
  CHARGEBACK: text('Contestação', 'Chargeback'),
};

const TRANSACTION_COLUMNS: readonly Column<ExportedTransaction>[] = [
  { name: 'id', label: text('ID', 'ID'), kind: 'text', value: (t) => t.id },
  { name: 'createdAt', label: text('Data', 'Date'), kind: 'time', value: (t) => t.createdAt },
  { name: 'paidAt', label: text('Pago em', 'Paid at'), kind: 'time', value: (t) => t.paidAt },
  { name: 'status', label: text('Status', 'Status'), kind: 'text', value: (t) => t.status, labels: STATUS_LABELS },
  { name: 'paymentMethod', label: text('Forma de pagamento', 'Payment method'), kind: 'text', value: (t) => t.paymentMethod, labels: METHOD_LABELS },
  { name: 'installments', label: text('Parcelas', 'Installments'), kind: 'count', value: (t) => t.installments },
  { name: 'amountCents', label: text('Valor (R$)', 'Amount (R$)'), kind: 'cents', value: (t) => t.amountCents },
  { name: 'feeCents', label: text('Tarifa (R$)', 'Fee (R$)'), kind: 'cents', value: (t) => t.feeCents },
  { name: 'netAmountCents', label: text('Líquido (R$)', 'Net (R$)'), kind: 'cents', value: (t) => t.netAmountCents },
  { name: 'refundedCents', label: text('Reembolsado (R$)', 'Refunded (R$)'), kind: 'cents', value: (t) => t.refundedCents },
  { name: 'referenceId', label: text('Referência', 'Reference'), kind: 'text', value: (t) => t.referenceId },
  { name: 'buyerName', label: text('Comprador', 'Buyer'), kind: 'text', value: (t) => t.buyerName },
  { name: 'buyerDocument', label: text('CPF ou CNPJ', 'CPF or CNPJ'), kind: 'text', value: (t) => t.buyerDocument },
  { name: 'buyerEmail', label: text('E-mail', 'E-mail'), kind: 'text', value: (t) => t.buyerEmail },
  { name: 'paymentLinkId', label: text('Link de pagamento', 'Payment link'), kind: 'text', value: (t) => t.paymentLinkId },
];

/** The receivables' filters as the dashboard names them, in the receivables module's terms. */
export interface ReceivableFilter {
  status?: string;
  recipientDocument?: string;
  expectedOnFrom?: string;
  expectedOnTo?: string;
}

interface ExportedReceivable {
  id: string;
  transactionId: string;
  recipientDocument: string;
  role: string;
  installment: number;
  expectedOn: string;
  status: string;
  paidAt?: string;
  grossAmountCents: number;
  feeCents: number;
  amountCents: number;
  adjustment?: string;
  refundId?: string;
}

const RECEIVABLE_COLUMNS: readonly Column<ExportedReceivable>[] = [
  { name: 'id', label: text('ID', 'ID'), kind: 'text', value: (r) => r.id },
  { name: 'transactionId', label: text('Transação', 'Transaction'), kind: 'text', value: (r) => r.transactionId },
  { name: 'recipientDocument', label: text('Recebedor (CPF ou CNPJ)', 'Recipient (CPF or CNPJ)'), kind: 'text', value: (r) => r.recipientDocument },
  { name: 'role', label: text('Papel', 'Role'), kind: 'text', value: (r) => r.role, labels: ROLE_LABELS },
  { name: 'installment', label: text('Parcela', 'Installment'), kind: 'count', value: (r) => r.installment },
  { name: 'expectedOn', label: text('Data prevista', 'Expected on'), kind: 'date', value: (r) => r.expectedOn },
  { name: 'status', label: text('Status', 'Status'), kind: 'text', value: (r) => r.status, labels: STATUS_LABELS },
  { name: 'paidAt', label: text('Pago em', 'Paid at'), kind: 'time', value: (r) => r.paidAt },
  { name: 'grossAmountCents', label: text('Bruto (R$)', 'Gross (R$)'), kind: 'cents', value: (r) => r.grossAmountCents },
  { name: 'feeCents', label: text('Tarifa (R$)', 'Fee (R$)'), kind: 'cents', value: (r) => r.feeCents },
  { name: 'amountCents', label: text('Líquido (R$)', 'Net (R$)'), kind: 'cents', value: (r) => r.amountCents },
  { name: 'adjustment', label: text('Ajuste', 'Adjustment'), kind: 'text', value: (r) => r.adjustment, labels: ADJUSTMENT_LABELS },
  { name: 'refundId', label: text('Reembolso', 'Refund'), kind: 'text', value: (r) => r.refundId },
];

/** Centavos as reais with a decimal comma, no thousands separator: 123456 → `1234,56`, -5 → `-0,05`. */
export function reais(cents: number): string {
  const abs = Math.abs(cents);
  const fraction = abs % 100;
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)},${fraction < 10 ? '0' : ''}${fraction}`;
}

const two = (n: number): string => (n < 10 ? `0${n}` : String(n));

/**
 * The last minute asked and its São Paulo wall clock (`DD/MM/AAAA HH:MM:`):
 * an export's rows come in time order, many in one minute, and the zone's
 * offsets are whole minutes, so one minute has one prefix and the seconds
 * are the instant's own.
 */
let cachedMinute = '';
let cachedPrefix = '';

/** An instant (ISO 8601 UTC, as PostgreSQL's to_char and toISOString write it) as São Paulo's wall clock reads it, `DD/MM/AAAA HH:MM:SS` (Excel pt-BR reads it as a date and time). */
export function saoPauloDateTime(iso: string): string {
  const minute = iso.slice(0, 16);
  if (minute !== cachedMinute) {
    const ms = Date.parse(`${minute}:00Z`);
    const local = new Date(ms + saoPauloOffsetMinutes(new Date(ms)) * 60_000);
    cachedPrefix = `${two(local.getUTCDate())}/${two(local.getUTCMonth() + 1)}/${local.getUTCFullYear()} ${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:`;
    cachedMinute = minute;
  }
  return cachedPrefix + iso.slice(17, 19);
}

/** A calendar date `YYYY-MM-DD` as `DD/MM/AAAA`. */
export const brazilianDate = (date: string): string => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;

/** How the excel form writes a column's value: the export's own text (an amount, a time) as it is, anything else through csvCell. */
function excelWriter(column: Column<never>, language: Language): (value: Raw) => string {
  const { kind, labels } = column;
  switch (kind) {
    case 'cents':
      return (v) => (v === null || v === undefined ? '' : reais(v as number));
    case 'time':
      return (v) => (v ? saoPauloDateTime(v as string) : '');
    case 'date':
      return (v) => (v ? brazilianDate(v as string) : '');
    case 'count':
      return (v) => (v === null || v === undefined ? '' : String(v));
    case 'text':
      return labels ? (v) => csvCell(typeof v === 'string' ? (labels[v]?.[language] ?? v) : v, ';') : (v) => csvCell(v, ';');
  }
}

/** What an export writes: its dialect, its header row and the line of a row. */
export interface CsvLayout<T> {
  dialect: CsvDialect;
  header: Cell[];
  line: (row: T) => string;
}

function layout<T>(columns: readonly Column<T>[], format: CsvFormat, language: Language): CsvLayout<T> {
  if (format === 'rfc4180') return { dialect: RFC4180, header: columns.map((c) => c.name), line: (row) => csvLine(columns.map((c) => c.value(row)), RFC4180) };
  // Written straight into the line (one writer per column, chosen once): the export's own amounts and times need no
  // escaping, and a million rows make no cell objects.
  const values = columns.map((c) => c.value);
  const writers = columns.map((c) => excelWriter(c as Column<never>, language));
  return {
    dialect: EXCEL,
    header: columns.map((c) => c.label[language]),
    line: (row) => {
      let line = writers[0]!(values[0]!(row));
      for (let i = 1; i < writers.length; i++) line += `;${writers[i]!(values[i]!(row))}`;
      return `${line}\r\n`;
    },
  };
}

export const transactionsLayout = (format: CsvFormat, language: Language): CsvLayout<ExportedTransaction> => layout(TRANSACTION_COLUMNS, format, language);
export const receivablesLayout = (format: CsvFormat, language: Language): CsvLayout<ExportedReceivable> => layout(RECEIVABLE_COLUMNS, format, language);

/** The rfc4180 form's headers, in order (docs/dashboard.md lists them). */
export const TRANSACTION_FIELDS = TRANSACTION_COLUMNS.map((c) => c.name);
export const RECEIVABLE_FIELDS = RECEIVABLE_COLUMNS.map((c) => c.name);

const FILE_WORDS = {
  transactions: text('transacoes', 'transactions'),
  receivables: text('recebiveis', 'receivables'),
  to: text('a', 'to'),
  since: text('desde', 'since'),
  until: text('ate', 'until'),
};

/**
 * The file's name, after the period it holds (its `from` and `to`, São Paulo
 * dates): `transacoes-2026-11-01-a-2026-11-30.csv`, `…-desde-2026-11-01.csv`,
 * `…-ate-2026-11-30.csv`; without a period, the day it was made
 * (`transacoes-2026-11-28.csv`). ASCII only, so every browser keeps it. The
 * rfc4180 form is named in English.
 */
export function csvFileName(what: 'transactions' | 'receivables', period: { from?: string | undefined; to?: string | undefined }, today: string, language: Language): string {
  const word = (key: keyof typeof FILE_WORDS) => FILE_WORDS[key][language];
  const { from, to } = period;
  const span = from && to ? `${from}-${word('to')}-${to}` : from ? `${word('since')}-${from}` : to ? `${word('until')}-${to}` : today;
  return `${word(what)}-${span}.csv`;
}
