/** Pure rules of webhook registrations and delivery retries. */

/** Active registrations a company may have at once. */
export const MAX_ACTIVE_WEBHOOKS = 10;

/**
 * When to try again after failed attempt number `attempt` (1-based), counted
 * from that failure, or undefined: give up. `retryDelaysMs` is the configured
 * schedule (WEBHOOK_RETRY_SCHEDULE); an empty schedule sends once.
 */
export function nextAttemptDelay(retryDelaysMs: readonly number[], attempt: number): number | undefined {
  return retryDelaysMs[attempt - 1];
}

/** The delivery's state after an attempt. */
export function stateAfterAttempt(succeeded: boolean, retryDelay: number | undefined): 'SUCCEEDED' | 'PENDING' | 'FAILED' {
  if (succeeded) return 'SUCCEEDED';
  return retryDelay !== undefined ? 'PENDING' : 'FAILED';
}
