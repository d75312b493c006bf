/**
 * The two signatures every delivery carries.
 *
 * X-Svc-Signature (the specification's): HMAC-SHA256 keyed with the whole
 * secret string (including `whsec_`) over `<X-Svc-Timestamp>.<raw body>`,
 * lowercase hex, sent as `v1=<hex>`.
 *
 * Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature), so a
 * receiver can verify with the `standardwebhooks` library of any language:
 * HMAC-SHA256 keyed with the bytes the part after `whsec_` decodes to, over
 * `<webhook-id>.<webhook-timestamp>.<raw body>`, standard base64, sent as
 * `v1,<base64>`. Secrets are `whsec_` + standard base64 of 32 random bytes;
 * secrets issued before were base64url (43 characters, no padding): their
 * key is the bytes that base64url text decodes to (Node's base64 decoder
 * reads both alphabets, padded or not), so a receiver holding one converts it
 * to standard base64 (`-` → `+`, `_` → `/`, pad with `=`) before handing it
 * to the library.
 */
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** `whsec_` + 32 random bytes in standard base64 (44 characters). */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

function signature(secret: string, timestampSeconds: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex')}`;
}

/** The Standard Webhooks key of a secret: what its part after `whsec_` decodes to (standard or base64url). */
function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** The Standard Webhooks `webhook-signature` value: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`. */
function standardSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac('sha256', standardKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** Both header sets of one delivery of event `id` of type `type`, signed with `secret` at `timestampSeconds`. */
export function signedHeaders(secret: string, id: string, type: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'x-svc-event-id': id,
    'x-svc-event': type,
    'x-svc-timestamp': String(timestampSeconds),
    'x-svc-signature': signature(secret, timestampSeconds, body),
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': standardSignature(secret, id, timestampSeconds, body),
  };
}
