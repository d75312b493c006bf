/** TypeBox schemas of webhook registrations, the delivery log and the event log. */
import { Type } from 'typebox';
import { Timestamp } from '../../http/common-schemas.js';
import { EVENT_TYPES } from '../events/index.js';
import { TransactionSchema } from '../transactions/index.js';

export const MAX_ACTIVE_WEBHOOKS = 10;

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'https URL of a public host' }),
    events: Type.Array(Type.Enum(EVENT_TYPES), { minItems: 1, uniqueItems: true }),
    description: Type.Optional(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: false },
);

export const WebhookSchema = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.Enum(EVENT_TYPES)),
    description: Type.Optional(Type.String()),
    active: Type.Boolean(),
    createdAt: Timestamp,
  },
  { $id: 'Webhook' },
);

export const CreatedWebhookSchema = Type.Object(
  { ...WebhookSchema.properties, secret: Type.String({ description: 'whsec_…; shown only in this response' }) },
  { $id: 'CreatedWebhook' },
);

export const DeliveryAttemptSchema = Type.Object({
  id: Type.String(),
  eventId: Type.String(),
  attempt: Type.Integer(),
  attemptedAt: Timestamp,
  statusCode: Type.Optional(Type.Integer()),
  error: Type.Optional(Type.String()),
  durationMs: Type.Integer(),
  succeeded: Type.Boolean(),
});

export const PageQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    startingAfter: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);

export const EventSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.Enum(EVENT_TYPES),
    createdAt: Timestamp,
    data: Type.Object({ transaction: TransactionSchema }),
  },
  { $id: 'Event' },
);

export const EventListQuery = Type.Object(
  { ...PageQuery.properties, type: Type.Optional(Type.Enum(EVENT_TYPES)) },
  { additionalProperties: false },
);

export const ResendBody = Type.Union([
  Type.Object({ webhookId: Type.Optional(Type.String({ pattern: '^whk_', maxLength: 64 })) }, { additionalProperties: false }),
  Type.Null(),
]);

export const ResendResponse = Type.Object({
  eventId: Type.String(),
  deliveries: Type.Array(Type.Object({ id: Type.String(), webhookId: Type.String() })),
});
