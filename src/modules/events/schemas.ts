/** TypeBox schemas of the event log and resend. */
import { Type } from 'typebox';
import { PageQuery, Timestamp } from '../../http/common-schemas.js';
import { RefundSchema } from '../refunds/schemas.js';
import { TransactionSchema } from '../transactions/index.js';
import { EVENT_TYPES, INTENT_EVENT_TYPES, TRANSACTION_SNAPSHOT_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from './rules.js';

/** An event about a transaction (and a refund's, its refund): every type but payment_intent.reversed and webhook.disabled. */
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

/** An event about a payment intent that made no transaction: payment_intent.reversed. */
export const IntentEventSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.Enum(INTENT_EVENT_TYPES),
    createdAt: Timestamp,
    data: Type.Object({
      paymentIntent: Type.Object(
        {
          id: Type.String(),
          status: Type.Literal('FAILED'),
          amountCents: Type.Integer(),
          paymentMethod: Type.Literal('CREDIT_CARD'),
          referenceId: Type.String(),
          metadata: Type.Record(Type.String(), Type.String()),
        },
        { $id: 'EventPaymentIntent', description: 'The payment intent, recorded FAILED: GET /v2/payment-intents/{id} shows all of it' },
      ),
      reversal: Type.Object(
        { amountCents: Type.Integer(), reversedAt: Timestamp },
        { description: 'The card approval reversed at the acquirer (desfazimento): no money moved' },
      ),
    }),
  },
  { $id: 'PaymentIntentEvent' },
);

export const EventSchema = Type.Union([TransactionEventSchema, IntentEventSchema, WebhookEventSchema], { $id: 'Event', description: 'An event: its type says which data it carries' });

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
