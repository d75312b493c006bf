/**
 * What tokenize asks about the ticket's intent. The intent belongs to the
 * payment-intents module (its table, its rules), which provides the answer;
 * the vault only learns whether a card may still be tokenized for it, so a
 * ticket cannot bring a card to an intent canceled, confirmed or being
 * confirmed while the ticket itself is still valid.
 */
import { DomainError, validationError } from '../../lib/domain-error.js';

export type IntentTokenState = 'awaiting-token' | 'processed' | 'expired' | 'missing';

export type IntentTokenGate = (companyId: string, intentId: string, now: Date) => Promise<IntentTokenState>;

/** Why tokenize refuses an intent in `state`; undefined when the intent waits for a token. */
export function refusalFor(state: IntentTokenState): DomainError | undefined {
  switch (state) {
    case 'awaiting-token':
      return undefined;
    case 'expired':
      return new DomainError('TICKET_EXPIRED', 'The ticket expired with its payment intent; create a new intent');
    case 'processed':
      return new DomainError('INTENT_ALREADY_PROCESSED', 'The payment intent no longer takes a card');
    case 'missing':
      return validationError('ticket', 'is not a valid ticket');
  }
}
