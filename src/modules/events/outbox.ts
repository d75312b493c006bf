/**
 * The outbox. Every event is inserted in the same database transaction as the
 * state change that caused it, with the full transaction snapshot, so an event
 * exists if and only if its change committed. In that same transaction one
 * delivery row is created for every active webhook registration that selected
 * the event's type at that moment; the delivery worker sends them later, at
 * least once. The body is stored as the exact text that is delivered.
 */
import { sql, type Transaction } from 'kysely';
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
  const companyId = transaction.sellerId;
  const body = JSON.stringify({ id, type, createdAt: at.toISOString(), data: { transaction } });
  await trx.insertInto('events').values({ id, company_id: companyId, type, transaction_id: transaction.id, body, created_at: at }).execute();
  const hooks = await trx
    .selectFrom('webhooks')
    .select('id')
    .where('company_id', '=', companyId)
    .where('active', '=', true)
    .where(sql<boolean>`events @> ${JSON.stringify([type])}::jsonb`)
    .execute();
  await enqueueDeliveries(trx, newId, at, companyId, id, hooks.map((h) => h.id));
  return id;
}

/** New PENDING deliveries of one event, due now; also used by resend. Returns their ids. */
export async function enqueueDeliveries(
  trx: Transaction<Database>,
  newId: IdGenerator,
  at: Date,
  companyId: string,
  eventId: string,
  webhookIds: string[],
): Promise<{ id: string; webhookId: string }[]> {
  const rows = webhookIds.map((webhookId) => ({
    id: newId('dlv'),
    company_id: companyId,
    webhook_id: webhookId,
    event_id: eventId,
    state: 'PENDING' as const,
    attempts: 0,
    next_attempt_at: at,
    locked_until: null,
    created_at: at,
    updated_at: at,
  }));
  if (rows.length > 0) await trx.insertInto('webhook_deliveries').values(rows).execute();
  return rows.map((r) => ({ id: r.id, webhookId: r.webhook_id }));
}
