/**
 * Pure rules of receivables: the lines a transaction owes once it is PAID,
 * computed by the split core (slices, fee by largest remainder, installments,
 * business days) and shaped as rows. No clock and no I/O: the payment time and
 * the id generator are passed in.
 */
import type { NewReceivable, TransactionRow } from '../../db/types.js';
import { saoPauloDate } from '../../lib/sao-paulo-date.js';
import { computeReceivables, type SplitRuleInput } from '../split/index.js';

export function receivableRows(row: TransactionRow, sellerDocument: string, paidAt: Date, newId: () => string): NewReceivable[] {
  const lines = computeReceivables({
    amountCents: row.amount_cents,
    feeCents: row.fee_cents,
    installments: row.installments,
    paymentMethod: row.payment_method as 'PIX' | 'BOLETO' | 'CREDIT_CARD',
    sellerDocument,
    rules: (row.split_rules ?? []) as SplitRuleInput[],
    paidOn: saoPauloDate(paidAt),
  });
  return lines.map((line, position) => ({
    id: newId(),
    company_id: row.company_id,
    transaction_id: row.id,
    recipient_document: line.recipientDocument,
    role: line.role,
    installment: line.installment,
    position,
    gross_amount_cents: line.grossAmountCents,
    fee_cents: line.feeCents,
    amount_cents: line.amountCents,
    expected_on: line.expectedOn,
    status: 'PENDING' as const,
    paid_at: null,
    created_at: paidAt,
  }));
}
