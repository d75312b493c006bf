/** Pure rules of webhook registrations and delivery retries. */

/** Active registrations a company may have at once. */
export const MAX_ACTIVE_WEBHOOKS = 10;

/**
 * The most a retry is put off past its scheduled delay, as a share of that
 * delay: deliveries that failed together during a receiver's outage come back
 * spread over a fifth of the delay (12 s after 1 min, 24 min after 2 h)
 * instead of all in the same second.
 */
export const RETRY_JITTER = 0.2;

/** Statuses whose Retry-After is read: the receiver says when it can take more. */
const RETRY_AFTER_STATUSES = new Set([429, 503]);

/** A Retry-After longer than this is not read (a date takes 29 characters; seconds a few digits). */
const MAX_RETRY_AFTER_LENGTH = 64;

export interface RetryInput {
  /** The configured schedule (WEBHOOK_RETRY_SCHEDULE); empty: one attempt. */
  retryDelaysMs: readonly number[];
  /** The failed attempt's number, 1-based. */
  attempt: number;
  /** A number in [0, 1) from the injected source of randomness (the jitter). */
  random: number;
  /** What the receiver's Retry-After asked for, in ms from the failure (retryAfterMs), if anything. */
  retryAfterMs?: number | undefined;
}

/**
 * When to try again after a failed attempt, counted from that failure, or
 * undefined: give up. The schedule's delay for this attempt plus up to
 * RETRY_JITTER of it; a receiver's Retry-After moves the retry later, never
 * sooner than that, and never past the schedule's longest delay. Retry-After
 * never adds attempts: once the schedule is spent the delivery fails.
 */
export function nextAttemptDelay(input: RetryInput): number | undefined {
  const { retryDelaysMs, attempt } = input;
  const scheduled = retryDelaysMs[attempt - 1];
  if (scheduled === undefined) return undefined;
  const random = Math.min(Math.max(input.random, 0), 1);
  const jittered = scheduled + Math.floor(scheduled * RETRY_JITTER * random);
  if (input.retryAfterMs === undefined) return jittered;
  const longest = Math.max(...retryDelaysMs);
  return Math.max(jittered, Math.min(input.retryAfterMs, longest));
}

/**
 * A receiver's Retry-After on a 429 or 503, in ms from `now`: delay-seconds
 * (`120`) or an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`); undefined for any
 * other status, a missing, malformed or overlong value, or a date already past.
 */
export function retryAfterMs(statusCode: number, header: string | undefined, now: Date): number | undefined {
  if (!RETRY_AFTER_STATUSES.has(statusCode) || header === undefined || header.length > MAX_RETRY_AFTER_LENGTH) return undefined;
  const value = header.trim();
  if (/^[0-9]{1,10}$/.test(value)) return Number(value) * 1000;
  // An HTTP date names its weekday first (IMF-fixdate and the obsolete forms RFC 9110 accepts).
  if (!/^[A-Za-z]{3}/.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  const ms = at - now.getTime();
  return ms > 0 ? ms : undefined;
}

/** The delivery's state after an attempt. */
export function stateAfterAttempt(succeeded: boolean, retryDelay: number | undefined): 'SUCCEEDED' | 'PENDING' | 'FAILED' {
  if (succeeded) return 'SUCCEEDED';
  return retryDelay !== undefined ? 'PENDING' : 'FAILED';
}

/** How a batch of attempts went for one registration: `ok` if any succeeded (the receiver answers), else its latest failure's time. */
export interface WebhookOutcome {
  webhookId: string;
  ok: boolean;
  at: Date;
}

/** A batch of recorded attempts per registration (repo.trackFailures follows each one's run of failures). */
export function outcomesByWebhook(outcomes: readonly { attempt: { webhook_id: string; succeeded: boolean }; next: { at: Date } }[]): WebhookOutcome[] {
  const out = new Map<string, WebhookOutcome>();
  for (const o of outcomes) {
    const webhookId = o.attempt.webhook_id;
    const seen = out.get(webhookId);
    const ok = o.attempt.succeeded || (seen?.ok ?? false);
    out.set(webhookId, { webhookId, ok, at: seen && seen.at > o.next.at ? seen.at : o.next.at });
  }
  return [...out.values()];
}
