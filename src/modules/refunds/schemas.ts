/** TypeBox schemas of refunds: the resource, the create body, the lists, and the refund events' names. */
import { Type } from 'typebox';
import { PageLimit, Timestamp } from '../../http/common-schemas.js';

export const REFUND_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
/** The events of a refund's outcome (the event catalogue of modules/events). */
export const REFUND_EVENT_TYPES = ['refund.succeeded', 'refund.failed'] as const;
export type RefundEventType = (typeof REFUND_EVENT_TYPES)[number];

export const RefundSchema = Type.Object(
  {
    id: Type.String({ description: 'rf_ id' }),
    transactionId: Type.String(),
    status: Type.Enum(REFUND_STATUSES, { description: 'PENDING until the provider has given the money back (SUCCEEDED) or refused to (FAILED)' }),
    amountCents: Type.Integer(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    reason: Type.Optional(Type.String()),
    failureReason: Type.Optional(Type.String({ description: "the provider's reason, on a FAILED refund" })),
  },
  { $id: 'Refund' },
);

export const CreateRefundBody = Type.Union([
  Type.Object(
    {
      amountCents: Type.Optional(Type.Integer({ minimum: 1, maximum: 9_999_999_999, description: 'default: all that is left to refund' })),
      reason: Type.Optional(Type.String({ maxLength: 255 })),
    },
    { additionalProperties: false },
  ),
  Type.Null(),
], { examples: [{ amountCents: 500, reason: 'Item returned' }] });

export const RefundListQuery = Type.Object(
  {
    limit: PageLimit,
    startingAfter: Type.Optional(Type.String({ pattern: '^rf_', maxLength: 64 })),
  },
  { additionalProperties: false },
);
