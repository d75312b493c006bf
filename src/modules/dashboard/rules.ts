/**
 * The CSV exports' columns (docs/dashboard.md "CSV exports"): names in
 * English as the API spells its fields, amounts in centavos, times ISO 8601
 * UTC, one line per transaction or receivable line.
 */
import type { ExportedTransaction } from '../transactions/index.js';
import type { Cell } from './csv.js';

export const TRANSACTION_COLUMNS = [
  'id',
  'createdAt',
  'paidAt',
  'status',
  'paymentMethod',
  'installments',
  'amountCents',
  'feeCents',
  'netAmountCents',
  'refundedCents',
  'referenceId',
  'buyerName',
  'buyerDocument',
  'buyerEmail',
  'paymentLinkId',
] as const;

export function transactionCells(t: ExportedTransaction): Cell[] {
  return [
    t.id,
    t.createdAt,
    t.paidAt,
    t.status,
    t.paymentMethod,
    t.installments,
    t.amountCents,
    t.feeCents,
    t.netAmountCents,
    t.refundedCents,
    t.referenceId,
    t.buyerName,
    t.buyerDocument,
    t.buyerEmail,
    t.paymentLinkId,
  ];
}

/** The receivables' filters as the dashboard names them, in the receivables module's terms. */
export interface ReceivableFilter {
  status?: string;
  recipientDocument?: string;
  expectedOnFrom?: string;
  expectedOnTo?: string;
}

export const RECEIVABLE_COLUMNS = [
  'id',
  'transactionId',
  'recipientDocument',
  'role',
  'installment',
  'expectedOn',
  'status',
  'paidAt',
  'grossAmountCents',
  'feeCents',
  'amountCents',
  'adjustment',
  'refundId',
] as const;

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

export function receivableCells(r: ExportedReceivable): Cell[] {
  return [r.id, r.transactionId, r.recipientDocument, r.role, r.installment, r.expectedOn, r.status, r.paidAt, r.grossAmountCents, r.feeCents, r.amountCents, r.adjustment, r.refundId];
}
