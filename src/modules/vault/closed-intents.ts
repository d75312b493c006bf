/**
 * Which card intents are over, as the vault knows it from its own data: the
 * vault never reads the API's tables. An intent is closed for the vault from
 * the commit in which an authorization spends one of its tokens (repo.spendToken:
 * its outcome is then decided by the acquirer, whatever it is), or from the
 * API's notice that it was confirmed, failed or canceled (POST
 * /internal/closed-intents, sent when a cancel commits and, for every card
 * intent that closed, by the API's worker until the vault acknowledges it:
 * payment-intents/vault-notices.ts). An intent that expires needs no notice:
 * its tickets and tokens expire with it (tickets.ts).
 *
 * What a closed intent means here: tokenize refuses its ticket (409
 * INTENT_ALREADY_PROCESSED, tokenize.ts), and the sweep erases the card and
 * CVV of its tokens (sweep.ts). A row is kept until the intent's expiry, the
 * last moment one of its tickets could be presented.
 */
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import * as repo from './repo.js';

/** The API's notice: this card intent will never take a card again. */
export interface ClosedIntentNotice {
  intentId: string;
  /** The intent's expiry, epoch milliseconds: until then one of its tickets may still be presented. */
  expiresAt: number;
}

/** Records the API's notices (idempotent: a notice told twice changes nothing). */
export async function recordClosedIntents(db: Db, clock: Clock, notices: readonly ClosedIntentNotice[]): Promise<void> {
  // One row per intent (an upsert may not touch a row twice in one statement), with its latest expiry.
  const latest = new Map<string, number>();
  for (const n of notices) latest.set(n.intentId, Math.max(n.expiresAt, latest.get(n.intentId) ?? 0));
  await repo.recordClosedIntents(
    db,
    [...latest].map(([intent_id, expiresAt]) => ({ intent_id, expires_at: new Date(expiresAt) })),
    clock.now(),
  );
}
