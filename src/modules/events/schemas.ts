/** TypeBox schemas of the event log and resend. */
import { Type } from 'typebox';
import { PageQuery, Timestamp } from '../../http/common-schemas.js';
import { RefundSchema } from '../refunds/schemas.js';
import { TransactionSchema } from '../transactions/index.js';
import { EVENT_TYPES } from './rules.js';

export const EventSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.Enum(EVENT_TYPES),
    createdAt: Timestamp,
    data: Type.Object({
      // refund.succeeded and refund.failed carry the refund.
      refund: Type.Optional(RefundSchema),
      transaction: TransactionSchema,
    }),
  },
  { $id: 'Event' },
);

export const EventListQuery = Type.Object(
  {
    ...PageQuery.properties,
    type: Type.Optional(Type.Enum(EVENT_TYPES)),
    after: Type.Optional(
      Type.String({
        pattern: '^evt_[0-9a-z]{26}$',
        description: 'the events that came after this one, oldest first (a feed to follow, as svc listen does); not with startingAfter',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ResendBody = Type.Union([
  Type.Object({ webhookId: Type.Optional(Type.String({ pattern: '^whk_', maxLength: 64 })) }, { additionalProperties: false }),
  Type.Null(),
], { examples: [{}] });

export const ResendResponse = Type.Object({
  eventId: Type.String(),
  deliveries: Type.Array(Type.Object({ id: Type.String(), webhookId: Type.String() })),
}, { $id: 'EventResend' });
