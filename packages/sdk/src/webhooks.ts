/**
 * Verifying a webhook delivery before trusting it. A delivery is signed two
 * ways with the registration's secret (`whsec_…`):
 *
 * - Standard Webhooks: `webhook-id`, `webhook-timestamp`, and
 *   `webhook-signature: v1,<base64>` (several, space-separated, during a
 *   secret's rotation), HMAC-SHA256 over `<id>.<timestamp>.<raw body>` keyed
 *   with the base64-decoded part of the secret after `whsec_`.
 * - The service's own: `X-Svc-Timestamp` and `X-Svc-Signature: v1=<hex>`,
 *   HMAC-SHA256 over `<timestamp>.<raw body>` keyed with the whole secret string.
 *
 * The Standard Webhooks headers are checked when present (a receiver written
 * for them needs nothing else), the X-Svc-* ones otherwise; the timestamp
 * must be within the tolerance of the receiver's clock, against replays.
 */
import type { WebhookEvent } from './types.js';

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface ConstructEventOptions {
  /** Largest accepted distance between the signed timestamp and now, in seconds; default 300. */
  toleranceSeconds?: number;
  /** The receiver's clock in milliseconds (tests); default Date.now. */
  now?: () => number;
}

export type WebhookVerificationReason = 'MISSING_HEADERS' | 'TIMESTAMP_OUT_OF_TOLERANCE' | 'SIGNATURE_MISMATCH' | 'INVALID_PAYLOAD';

/** The delivery is not to be trusted: `reason` says why. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';

  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
  ) {
    super(message);
  }
}

const SECRET_PREFIX = 'whsec_';
const encoder = new TextEncoder();

/**
 * Checks a delivery's signature and timestamp and returns its event.
 * `rawBody` must be the bytes (or their text) exactly as received, before any
 * JSON parsing. Throws WebhookVerificationError otherwise.
 */
export async function constructEvent(rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string, opts: ConstructEventOptions = {}): Promise<WebhookEvent> {
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const header = (name: string) => headerValue(headers, name);
  const standard = { id: header('webhook-id'), timestamp: header('webhook-timestamp'), signature: header('webhook-signature') };
  const own = { timestamp: header('x-svc-timestamp'), signature: header('x-svc-signature') };

  let timestamp: string;
  if (standard.signature !== undefined) {
    if (standard.id === undefined || standard.timestamp === undefined) throw missing('webhook-id and webhook-timestamp');
    timestamp = standard.timestamp;
    const signatures = standard.signature.split(' ').flatMap((s) => (s.startsWith('v1,') ? [base64ToBytes(s.slice(3))] : []));
    const expected = await hmac(standardKey(secret), concat(encoder.encode(`${standard.id}.${timestamp}.`), body));
    if (!signatures.some((s) => s !== undefined && constantTimeEqual(s, expected))) throw mismatch('webhook-signature');
  } else if (own.signature !== undefined && own.timestamp !== undefined) {
    timestamp = own.timestamp;
    const signatures = own.signature.split(/[\s,]+/).flatMap((s) => (s.startsWith('v1=') ? [hexToBytes(s.slice(3))] : []));
    const expected = await hmac(encoder.encode(secret), concat(encoder.encode(`${timestamp}.`), body));
    if (!signatures.some((s) => s !== undefined && constantTimeEqual(s, expected))) throw mismatch('X-Svc-Signature');
  } else {
    throw missing('webhook-signature (or X-Svc-Signature and X-Svc-Timestamp)');
  }

  // After the signature: the timestamp read is one the secret's holder signed.
  const tolerance = opts.toleranceSeconds ?? 300;
  const seconds = /^\d{1,15}$/.test(timestamp) ? Number(timestamp) : NaN;
  const now = (opts.now ?? Date.now)() / 1000;
  if (!(Math.abs(now - seconds) <= tolerance)) {
    throw new WebhookVerificationError('TIMESTAMP_OUT_OF_TOLERANCE', `The delivery's timestamp ${timestamp} is more than ${tolerance} s from now`);
  }

  try {
    return JSON.parse(new TextDecoder().decode(body)) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('INVALID_PAYLOAD', 'The signed body is not JSON');
  }
}

const missing = (what: string) => new WebhookVerificationError('MISSING_HEADERS', `The delivery has no ${what} header`);
const mismatch = (header: string) => new WebhookVerificationError('SIGNATURE_MISMATCH', `No ${header} matches the body signed with this secret`);

/** A header by its lower-case name, from a Headers object or Node's IncomingHttpHeaders-like record. */
function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Standard Webhooks' key: the secret's base64 after `whsec_` (base64url accepted too). */
function standardKey(secret: string): Uint8Array<ArrayBuffer> {
  const key = base64ToBytes(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  if (key === undefined) throw new TypeError('The webhook secret is not whsec_ followed by base64');
  return key;
}

async function hmac(key: Uint8Array<ArrayBuffer>, message: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const cryptoKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, message));
}

/** Compares every byte whatever the first difference, so the time taken says nothing of where a guess went wrong. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function hexToBytes(hex: string): Uint8Array | undefined {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex)) return undefined;
  return Uint8Array.from(hex.match(/../g)!, (pair) => parseInt(pair, 16));
}

function base64ToBytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  const standard = text.replace(/-/g, '+').replace(/_/g, '/');
  try {
    return Uint8Array.from(atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}
