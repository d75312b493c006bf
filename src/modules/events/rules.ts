/**
 * The event catalogue and the exact text of an event. Pure: the id and the
 * time are passed in.
 *
 * The catalogue is the transactions module's lifecycle events and the
 * refunds module's outcomes; the data of an event is the full transaction
 * snapshot at that moment, and a refund event also carries the refund
 * (`data.refund`, written before `data.transaction`).
 */
import { REFUND_EVENT_TYPES, type RefundEventType } from '../refunds/schemas.js';
import { TRANSACTION_EVENT_TYPES, type TransactionEventType } from '../transactions/index.js';

export const EVENT_TYPES = [...TRANSACTION_EVENT_TYPES, ...REFUND_EVENT_TYPES] as const;
export type EventType = TransactionEventType | RefundEventType;

export interface TransactionSnapshot {
  id: string;
  sellerId: string;
}

/** The body stored once and delivered as is: `{id, type, createdAt, data: {refund?, transaction}}`, keys in this order. */
export function eventBody(id: string, type: EventType, at: Date, transaction: TransactionSnapshot, refund?: object): string {
  return JSON.stringify({ id, type, createdAt: at.toISOString(), data: refund ? { refund, transaction } : { transaction } });
}

/** A page of stored bodies as the list answers it: the bodies are joined as they are, never re-serialised. */
export function eventPage(bodies: string[], hasMore: boolean): string {
  return `{"data":[${bodies.join(',')}],"hasMore":${hasMore}}`;
}
