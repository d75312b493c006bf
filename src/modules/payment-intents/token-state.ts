/**
 * The vault's question about a card intent (vault/intent-gate.ts): may a card
 * still be tokenized for it? Only while it waits for a token: REQUIRES_TOKEN,
 * not expired, and no confirmation claimed. The vault runs the SELECT inside
 * its own statement; the rule stays here (rules.effectiveStatus). Its sweep
 * erases the card of a token whose intent is closed (repo.intentClosedCondition).
 */
import type { PaymentIntentRow } from '../../db/types.js';
import type { IntentTokenGate } from '../vault/index.js';
import { intentClosedCondition, tokenGateFactsQuery } from './repo.js';
import { effectiveStatus } from './rules.js';

type Facts = Pick<PaymentIntentRow, 'status' | 'expires_at' | 'confirm_started_at'>;

export const intentTokenGate: IntentTokenGate = {
  facts: tokenGateFactsQuery,
  state(facts, now) {
    const row = facts as { [K in keyof Facts]: Facts[K] | null };
    if (!row.status || !row.expires_at) return 'missing';
    const status = effectiveStatus(row as Facts, now);
    if (status === 'EXPIRED') return 'expired';
    return status === 'REQUIRES_TOKEN' && !row.confirm_started_at ? 'awaiting-token' : 'processed';
  },
  closed: intentClosedCondition,
};
