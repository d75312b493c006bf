/**
 * The event catalogue and the exact text of an event. Pure: the id and the
 * time are passed in.
 *
 * Today every event is a move in a transaction's life, so the catalogue is
 * the transactions module's list of lifecycle events; the data of an event is
 * the full transaction snapshot at that moment.
 */
import { TRANSACTION_EVENT_TYPES, type TransactionEventType } from '../transactions/index.js';

export const EVENT_TYPES = TRANSACTION_EVENT_TYPES;
export type EventType = TransactionEventType;

export interface TransactionSnapshot {
  id: string;
  sellerId: string;
}

/** The body stored once and delivered as is: `{id, type, createdAt, data.transaction}`, keys in this order. */
export function eventBody(id: string, type: EventType, at: Date, transaction: TransactionSnapshot): string {
  return JSON.stringify({ id, type, createdAt: at.toISOString(), data: { transaction } });
}

/** A page of stored bodies as the list answers it: the bodies are joined as they are, never re-serialised. */
export function eventPage(bodies: string[], hasMore: boolean): string {
  return `{"data":[${bodies.join(',')}],"hasMore":${hasMore}}`;
}
