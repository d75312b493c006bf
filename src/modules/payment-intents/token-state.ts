/**
 * The vault's question about a card intent (vault/intent-gate.ts): may a card
 * still be tokenized for it? Only while it waits for a token: REQUIRES_TOKEN,
 * not expired, and no confirmation claimed.
 */
import type { Db } from '../../db/database.js';
import type { IntentTokenGate } from '../vault/index.js';
import * as repo from './repo.js';
import { effectiveStatus } from './rules.js';

export function intentTokenGate(db: Db): IntentTokenGate {
  return async (companyId, intentId, now) => {
    const row = await repo.findIntent(db, companyId, intentId);
    if (!row) return 'missing';
    const status = effectiveStatus(row, now);
    if (status === 'EXPIRED') return 'expired';
    return status === 'REQUIRES_TOKEN' && !row.confirm_started_at ? 'awaiting-token' : 'processed';
  };
}
