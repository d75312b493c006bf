/** The API views of receivable lines: inside a transaction, and in GET /v2/receivables. */
import type { ReceivableRow } from '../../db/types.js';
import type { ReceivableView } from '../transactions/index.js';

export function receivableView(row: ReceivableRow): ReceivableView {
  return {
    recipientDocument: row.recipient_document,
    role: row.role,
    installment: row.installment,
    grossAmountCents: row.gross_amount_cents,
    feeCents: row.fee_cents,
    amountCents: row.amount_cents,
    expectedOn: row.expected_on,
    status: row.status,
    ...(row.paid_at ? { paidAt: row.paid_at.toISOString() } : {}),
    ...(row.adjustment ? { adjustment: row.adjustment } : {}),
    ...(row.refund_id ? { refundId: row.refund_id } : {}),
  };
}

/** A line of GET /v2/receivables: the line with its own id and its transaction's. */
export function listedReceivableView(row: ReceivableRow): ReceivableView & { id: string; transactionId: string } {
  return { id: row.id, transactionId: row.transaction_id, ...receivableView(row) };
}
