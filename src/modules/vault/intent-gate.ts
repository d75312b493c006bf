/**
 * What tokenize asks about the ticket's intent. The intent belongs to the
 * payment-intents module (its table, its rules), which provides the answer;
 * the vault only learns whether a card may still be tokenized for it, so a
 * ticket cannot bring a card to an intent canceled, confirmed or being
 * confirmed while the ticket itself is still valid.
 *
 * The question is asked in the vault's own statement (the attempt counters,
 * repo.countAttempts), so that it costs no round trip of its own: the
 * payment-intents module gives the SELECT that reads the intent's facts, and
 * reads the state from what it returned.
 *
 * The vault's sweep asks a second question, for each token still holding a
 * card: is its intent closed for good (its card can never be charged)? The
 * module gives that as an SQL condition on the token's columns (`closed`).
 */
import type { RawBuilder } from 'kysely';
import { DomainError, validationError } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';

export type IntentTokenState = 'awaiting-token' | 'processed' | 'expired' | 'missing';

/** The columns the facts SELECT returned, as named by it (NULL everywhere: no such intent). */
type IntentFacts = Record<string, unknown>;

export interface IntentTokenGate {
  /** A SELECT of at most one row, the intent's facts; its column names must not start with `attempts_`. */
  facts(companyId: string, intentId: string): RawBuilder<IntentFacts>;
  /** The state those facts mean at `now`. */
  state(facts: IntentFacts, now: Date): IntentTokenState;
  /**
   * An SQL condition, true when the intent named by these columns will never
   * be confirmed with a card again whatever the time (canceled, confirmed,
   * failed, persisted expired); an intent being confirmed is not closed.
   */
  closed(columns: { companyId: RawBuilder<string>; intentId: RawBuilder<string> }): RawBuilder<boolean>;
}

/** Why tokenize refuses an intent in `state`; undefined when the intent waits for a token. */
export function refusalFor(state: IntentTokenState): DomainError | undefined {
  switch (state) {
    case 'awaiting-token':
      return undefined;
    case 'expired':
      return new DomainError('TICKET_EXPIRED', ERRORS.TICKET_EXPIRED.withIntent);
    case 'processed':
      return new DomainError('INTENT_ALREADY_PROCESSED', ERRORS.INTENT_ALREADY_PROCESSED.noLongerTakesCard);
    case 'missing':
      return validationError('ticket', PROBLEMS.ticket);
  }
}
