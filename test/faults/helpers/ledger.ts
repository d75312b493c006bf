/**
 * What the database holds after a fault, read straight from the cluster (not
 * through the proxy): for the intents whose confirm was answered 201, how many
 * transactions each has, and whether the answered transaction is the stored one.
 */
import type { Cluster } from './cluster.js';

export interface LedgerCheck {
  /** Confirmed (201) intents without a transaction. */
  lost: string[];
  /** Intents with more than one transaction (any intent, not only the answered ones). */
  duplicated: string[];
  /** 201s whose transaction id is not the one stored. */
  mismatched: string[];
}

export async function checkLedger(cluster: Cluster, database: string, confirmed: Map<string, string>): Promise<LedgerCheck> {
  const rows = await cluster.queryIn<{ id: string; payment_intent_id: string }>(database, 'SELECT id, payment_intent_id FROM transactions');
  const byIntent = new Map<string, string[]>();
  for (const row of rows) byIntent.set(row.payment_intent_id, [...(byIntent.get(row.payment_intent_id) ?? []), row.id]);
  const lost = [...confirmed.keys()].filter((intentId) => !byIntent.has(intentId));
  const duplicated = [...byIntent].filter(([, ids]) => ids.length > 1).map(([intentId]) => intentId);
  const mismatched = [...confirmed].filter(([intentId, trx]) => byIntent.has(intentId) && !byIntent.get(intentId)!.includes(trx)).map(([i]) => i);
  return { lost, duplicated, mismatched };
}
