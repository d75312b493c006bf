/**
 * The outbox. Every event is inserted in the same database transaction as the
 * state change that caused it, with the full transaction snapshot, so an event
 * exists if and only if its change committed. Delivery reads these rows later
 * (at least once). The body is stored as the exact text that is delivered.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { IdGenerator } from '../../lib/ids.js';

export const EVENT_TYPES = ['transaction.created', 'transaction.paid', 'transaction.canceled'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface TransactionSnapshot {
  id: string;
  sellerId: string;
}

export async function recordEvent(
  trx: Transaction<Database>,
  newId: IdGenerator,
  at: Date,
  type: EventType,
  transaction: TransactionSnapshot,
): Promise<string> {
  const id = newId('evt');
  const body = JSON.stringify({ id, type, createdAt: at.toISOString(), data: { transaction } });
  await trx
    .insertInto('events')
    .values({ id, company_id: transaction.sellerId, type, transaction_id: transaction.id, body, created_at: at })
    .execute();
  return id;
}
