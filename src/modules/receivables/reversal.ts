/**
 * Pure: the receivable rows a reversal (refund or chargeback) changes and
 * adds, from the split core's reverseLines (modules/split/refund.ts). No clock
 * and no I/O: the time and the id generator are passed in.
 */
import type { NewReceivable, ReceivableRow, TransactionRow } from '../../db/types.js';
import { saoPauloDate } from '../../lib/sao-paulo-date.js';
import { adjustmentDueOn, reverseLines, type LineChange } from '../split/index.js';
import type { ReceivableReversal } from '../transactions/index.js';

export function reversalRows(
  row: TransactionRow,
  lines: ReceivableRow[],
  reversal: ReceivableReversal,
  at: Date,
  newId: () => string,
): { changes: LineChange[]; adjustments: NewReceivable[] } {
  const { changes, adjustments } = reverseLines(
    lines.map((l) => ({
      id: l.id,
      recipientDocument: l.recipient_document,
      role: l.role,
      installment: l.installment,
      status: l.status,
      adjustment: l.adjustment !== null,
      feeCents: l.fee_cents,
      amountCents: l.amount_cents,
    })),
    reversal.feeCents,
    reversal.amountCents,
  );
  const position = lines.reduce((max, l) => Math.max(max, l.position), -1) + 1;
  const expectedOn = adjustmentDueOn(saoPauloDate(at));
  return {
    changes,
    adjustments: adjustments.map((a, i) => ({
      id: newId(),
      company_id: row.company_id,
      transaction_id: row.id,
      recipient_document: a.recipientDocument,
      role: a.role,
      // Not an installment of the sale: adjustment lines carry 0.
      installment: 0,
      position: position + i,
      gross_amount_cents: a.feeCents + a.amountCents,
      fee_cents: a.feeCents,
      amount_cents: a.amountCents,
      expected_on: expectedOn,
      status: 'PENDING' as const,
      paid_at: null,
      created_at: at,
      adjustment: reversal.adjustment,
      refund_id: reversal.refundId ?? null,
    })),
  };
}
