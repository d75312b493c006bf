/**
 * The delivery signature: HMAC-SHA256 keyed with the whole secret string
 * (including `whsec_`) over `<X-Svc-Timestamp>.<raw body>`, lowercase hex,
 * sent as `X-Svc-Signature: v1=<hex>`.
 */
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** `whsec_` + 32 random bytes, base64url (43 characters). */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url');
}

export function signature(secret: string, timestampSeconds: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex')}`;
}
