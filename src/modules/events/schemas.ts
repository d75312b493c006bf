/** TypeBox schemas of the event log and resend. */
import { Type } from 'typebox';
import { PageQuery, Timestamp } from '../../http/common-schemas.js';
import { RefundSchema } from '../refunds/schemas.js';
import { TransactionSchema } from '../transactions/index.js';
import { EVENT_TYPES, TRANSACTION_SNAPSHOT_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from './rules.js';

/** An event about a transaction (and a refund's, its refund): every type but webhook.disabled. */
export const TransactionEventSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.Enum(TRANSACTION_SNAPSHOT_EVENT_TYPES),
    createdAt: Timestamp,
    data: Type.Object({
      // refund.succeeded and refund.failed carry the refund.
      refund: Type.Optional(RefundSchema),
      transaction: TransactionSchema,
    }),
  },
  { $id: 'TransactionEvent' },
);

/** The registration an event about a webhook names (rules.ts: WebhookSnapshot). */
const EventWebhookSchema = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    status: Type.Enum(['enabled', 'disabled']),
    failingSince: Type.Optional(Timestamp),
    disabledAt: Type.Optional(Timestamp),
  },
  { $id: 'EventWebhook', description: 'The registration: failingSince is its first failed attempt since the last success' },
);

/** An event about a webhook registration: webhook.disabled. */
export const WebhookEventSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.Enum(WEBHOOK_EVENT_TYPES),
    createdAt: Timestamp,
    data: Type.Object({ webhook: EventWebhookSchema }),
  },
  { $id: 'WebhookEvent' },
);

export const EventSchema = Type.Union([TransactionEventSchema, WebhookEventSchema], { $id: 'Event', description: 'An event: its type says which data it carries' });

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
