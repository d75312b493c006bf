/** TypeBox schemas of webhook registrations and the delivery log. */
import { Type } from 'typebox';
import { Timestamp } from '../../http/common-schemas.js';
import { EVENT_TYPES } from '../events/index.js';

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

export const WebhookListSchema = Type.Object({ data: Type.Array(WebhookSchema) });

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
