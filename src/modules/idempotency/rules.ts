/** Pure rules of Idempotency-Key: lifetimes, what makes two requests the same, the stored bytes. */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../lib/canonical-json.js';
import { isDomainError, type Outcome } from '../../lib/domain-error.js';

/** How long a claimed key belongs to its request before a retry may take it over. */
export const IDEMPOTENCY_LEASE_MS = 60_000;
/** How long a key is remembered. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 3_600_000;

/** What makes two requests "the same" for a key: method, route pattern, path parameters, canonical body. */
export function requestFingerprint(method: string, routeUrl: string, params: unknown, body: unknown): string {
  const text = `${method} ${routeUrl}\n${canonicalJson(params ?? {})}\n${canonicalJson(body ?? null)}`;
  return createHash('sha256').update(text).digest('hex');
}

/** The exact bytes of a response body: an error's spec body, or the JSON of a view. */
export function responseBytes(outcome: Outcome<unknown>): string {
  return isDomainError(outcome) ? JSON.stringify(outcome.toBody()) : JSON.stringify(outcome);
}
