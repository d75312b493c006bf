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
  { additionalProperties: false, examples: [{ url: 'https://example.com/webhooks/svc', events: ['transaction.paid', 'transaction.canceled'], description: 'Order service' }] },
);

export const WebhookSchema = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.Enum(EVENT_TYPES)),
    description: Type.Optional(Type.String()),
    active: Type.Boolean(),
    status: Type.Enum(['enabled', 'disabled'], {
      description: 'disabled: its deliveries all failed for WEBHOOK_DISABLE_AFTER (5 days by default); they wait until POST /v2/webhooks/{id}/enable',
    }),
    disabledAt: Type.Optional(Timestamp),
    createdAt: Timestamp,
  },
  { $id: 'Webhook' },
);

export const WebhookListSchema = Type.Object({ data: Type.Array(WebhookSchema) }, { $id: 'WebhookList' });

export const CreatedWebhookSchema = Type.Object(
  { ...WebhookSchema.properties, secret: Type.String({ description: 'whsec_…; shown only in this response' }) },
  { $id: 'CreatedWebhook' },
);

const AttemptOutcome = {
  attemptedAt: Timestamp,
  statusCode: Type.Optional(Type.Integer({ description: "the receiver's HTTP status" })),
  error: Type.Optional(Type.String({ description: 'why no status came back (connection refused, timeout…)' })),
  durationMs: Type.Integer(),
};

const DeliveryAttemptSchema = Type.Object({ attempt: Type.Integer({ minimum: 1 }), ...AttemptOutcome, succeeded: Type.Boolean() });

export const DeliverySchema = Type.Object(
  {
    id: Type.String({ description: 'dlv_ id, as POST /v2/events/{id}/resend answers it' }),
    eventId: Type.String(),
    status: Type.Enum(['PENDING', 'SUCCEEDED', 'FAILED', 'CANCELED']),
    attempt: Type.Integer({ minimum: 0, description: 'the number of the latest attempt (0: not sent yet); its outcome follows' }),
    attemptedAt: Type.Optional(AttemptOutcome.attemptedAt),
    statusCode: AttemptOutcome.statusCode,
    error: AttemptOutcome.error,
    durationMs: Type.Optional(AttemptOutcome.durationMs),
    succeeded: Type.Boolean(),
    nextAttemptAt: Type.Optional(Timestamp),
    attempts: Type.Array(DeliveryAttemptSchema, { description: 'every attempt, the latest first' }),
  },
  { $id: 'WebhookDelivery', description: 'One delivery of an event to a registration, with its attempts' },
);
