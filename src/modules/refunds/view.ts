/** The refund as the API shows it (GET /v2/refunds/{id}), which is also `data.refund` of the refund events. Keys in a fixed order, the optional ones last, as the route's serializer writes them. */
import type { Static } from 'typebox';
import type { RefundRow } from '../../db/types.js';
import type { RefundSchema } from './schemas.js';

export type RefundView = Static<typeof RefundSchema>;

export function refundView(row: RefundRow): RefundView {
  return {
    id: row.id,
    transactionId: row.transaction_id,
    status: row.status,
    amountCents: row.amount_cents,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    ...(row.reason !== null ? { reason: row.reason } : {}),
    ...(row.failure_reason !== null ? { failureReason: row.failure_reason } : {}),
  };
}
