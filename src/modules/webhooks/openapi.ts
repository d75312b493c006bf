/**
 * The `webhooks` section of the API reference: the request this service sends
 * to a registered URL for each event type (delivery.ts sends it, signature.ts
 * signs it). The body is the event exactly as GET /v2/events/{id} answers it.
 */
import { EVENT_TYPES, type EventType } from '../events/index.js';

const SENT_WHEN: Record<EventType, string> = {
  'transaction.created': 'A payment intent was confirmed: its transaction exists (Pix and boleto PENDING; card PAID or FAILED next).',
  'transaction.paid': 'The buyer paid (including the sandbox pay route); split receivables exist from now on.',
  'transaction.canceled': 'The transaction was canceled, refused, expired or charged back.',
  'refund.succeeded': 'A refund gave the money back; `data.refund` is the refund.',
  'refund.failed': 'The provider refused a refund; `data.refund.failureReason` says why.',
  'payment_intent.reversed':
    'A card approval that reached the acquirer after its payment intent was recorded FAILED was reversed there (desfazimento): no money moved and no transaction exists; `data.paymentIntent` is the intent, `data.reversal` the reversal.',
  'webhook.disabled':
    'A registration whose deliveries had all failed for WEBHOOK_DISABLE_AFTER (5 days by default) was disabled; `data.webhook` names it. Its deliveries wait until POST /v2/webhooks/{id}/enable.',
};

const header = (name: string, description: string, schema: object = { type: 'string' }) => ({ in: 'header', name, required: true, description, schema });

const HEADERS = [
  header('X-Svc-Event-Id', "The event's id (evt_…); the same on every attempt: use it to drop repeats."),
  header('X-Svc-Event', 'The event type.'),
  header('X-Svc-Timestamp', 'Send time, Unix seconds; reject a delivery more than 300 s away from your clock.', { type: 'string', pattern: '^[0-9]+$' }),
  header(
    'X-Svc-Signature',
    '`v1=` and the lowercase hex HMAC-SHA256 of `<X-Svc-Timestamp>.<raw body>` keyed with the whole registration secret (`whsec_…`); compare in constant time.',
    { type: 'string', pattern: '^v1=[0-9a-f]{64}$' },
  ),
  ...standardWebhooksHeaders(),
];

/** The Standard Webhooks set (signature.ts), so a receiver can verify with any Standard Webhooks library. */
function standardWebhooksHeaders() {
  const signed = '`<webhook-id>.<webhook-timestamp>.<raw body>`';
  const key = 'the bytes the secret decodes to after `whsec_`';
  return [
    header('webhook-id', 'Standard Webhooks: the event id, as X-Svc-Event-Id.'),
    header('webhook-timestamp', 'Standard Webhooks: send time, Unix seconds.', { type: 'string', pattern: '^[0-9]+$' }),
    header('webhook-signature', `Standard Webhooks: \`v1,\` and the base64 HMAC-SHA256 of ${signed} keyed with ${key}.`, { type: 'string', pattern: '^v1,[A-Za-z0-9+/]{43}=$' }),
  ];
}

/** One webhook per event type, for OpenAPI 3.1's top-level `webhooks`. */
export function webhookDocs(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const type of EVENT_TYPES) {
    out[type] = {
      post: {
        operationId: `${type.replace(/[._]([a-z])/g, (_m, c: string) => c.toUpperCase())}Webhook`,
        tags: ['Webhooks'],
        summary: `Event ${type}`,
        description: `${SENT_WHEN[type]} Sent as a POST to each active registration that selected \`${type}\`; the same event may arrive more than once and in any order.`,
        parameters: HEADERS,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { allOf: [{ $ref: '#/components/schemas/Event' }, { type: 'object', properties: { type: { type: 'string', enum: [type] } } }] },
            },
          },
        },
        responses: {
          '2XX': { description: 'Delivered: any 2xx within 10 seconds. Anything else is retried in production (1 min, 5 min, 30 min, 2 h, 12 h, each up to a fifth later at random; a 429 or 503 with Retry-After, in seconds or an HTTP date, is waited for, up to 12 h); the sandbox sends once.' },
        },
      },
    };
  }
  return out;
}
