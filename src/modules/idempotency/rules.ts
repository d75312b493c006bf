/** Pure rules of Idempotency-Key: lifetimes, what makes two requests the same, the stored bytes. */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../lib/canonical-json.js';
import { isDomainError, type Outcome } from '../../lib/domain-error.js';
import type { Language } from '../../lib/i18n/language.js';
import { viewJson } from '../../lib/view-json.js';

/** How long a claimed key belongs to its request before a retry may take it over. */
export const IDEMPOTENCY_LEASE_MS = 60_000;
/** How long a key is remembered. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 3_600_000;

/**
 * What makes two requests "the same" for a key: method, route pattern, path
 * parameters, canonical body. No body and an empty object are one request (a
 * bodiless confirm retried by a client that sends `{}`), as the routes treat them.
 */
export function requestFingerprint(method: string, routeUrl: string, params: unknown, body: unknown): string {
  const canonicalBody = canonicalJson(body ?? null);
  const text = `${method} ${routeUrl}\n${canonicalJson(params ?? {})}\n${canonicalBody === '{}' ? 'null' : canonicalBody}`;
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The exact bytes of a response body: an error's spec body in the language
 * of the request that stored it, or the JSON of a view. A replay sends these
 * bytes, so it answers in the first request's language whatever its own
 * Accept-Language says.
 */
export function responseBytes(outcome: Outcome<unknown>, language: Language): string {
  return isDomainError(outcome) ? JSON.stringify(outcome.toBody(language)) : viewJson(outcome);
}

/**
 * How a view is stored for its key and given back on a replay: `compact`
 * may leave out what `expand` draws again from the rest (a Pix QR image,
 * transactions' storedViewForm), as long as `expand` of the compact form's
 * JSON is the view's own JSON, byte for byte.
 */
export interface StoredForm {
  compact(view: object): object;
  expand(stored: string): string;
}

/** The bytes stored for a key: responseBytes of the outcome, a view in its compact form. */
export function storedBytes(outcome: Outcome<unknown>, language: Language, form: StoredForm): string {
  return isDomainError(outcome) || typeof outcome !== 'object' || outcome === null ? responseBytes(outcome, language) : viewJson(form.compact(outcome));
}
