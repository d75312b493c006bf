/**
 * The event catalogue and the exact text of an event. Pure: the id and the
 * time are passed in.
 *
 * The catalogue is the transactions module's lifecycle events, the
 * refunds module's outcomes and the webhooks' own `webhook.disabled`; the
 * data of a transaction event is the full transaction snapshot at that
 * moment, a refund event also carries the refund (`data.refund`, written
 * before `data.transaction`), and `webhook.disabled` carries the
 * registration (`data.webhook`) and no transaction.
 */
import { REFUND_EVENT_TYPES, type RefundEventType } from '../refunds/schemas.js';
import { TRANSACTION_EVENT_TYPES, withQrImagesDrawn, withoutQrImage, type TransactionEventType, type TransactionView } from '../transactions/index.js';

/** Events about a webhook registration itself (the webhooks module records them through the outbox). */
export const WEBHOOK_EVENT_TYPES = ['webhook.disabled'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The events whose data is a transaction (and a refund's, its refund). */
export const TRANSACTION_SNAPSHOT_EVENT_TYPES = [...TRANSACTION_EVENT_TYPES, ...REFUND_EVENT_TYPES] as const;
export type TransactionSnapshotEventType = TransactionEventType | RefundEventType;

export const EVENT_TYPES = [...TRANSACTION_SNAPSHOT_EVENT_TYPES, ...WEBHOOK_EVENT_TYPES] as const;
export type EventType = TransactionSnapshotEventType | WebhookEventType;

/** A registration as `webhook.disabled` tells it (events/schemas.ts: EventWebhook). */
export interface WebhookSnapshot {
  id: string;
  url: string;
  status: 'enabled' | 'disabled';
  /** The first failed attempt of the run of failures that disabled it. */
  failingSince?: string;
  disabledAt?: string;
}

export interface TransactionSnapshot {
  id: string;
  sellerId: string;
  paymentDetails?: TransactionView['paymentDetails'];
}

/**
 * The body as stored: `{id, type, createdAt, data: {refund?, transaction}}`,
 * keys in this order, and the Pix QR image left out of the transaction's
 * payment details (a pure function of the code beside it): deliveredBody
 * draws it again, so what is delivered and listed is the full transaction.
 */
export function eventBody(id: string, type: TransactionSnapshotEventType, at: Date, transaction: TransactionSnapshot, refund?: object): string {
  const details = transaction.paymentDetails && withoutQrImage(transaction.paymentDetails);
  const stored = details === transaction.paymentDetails ? transaction : { ...transaction, paymentDetails: details };
  return JSON.stringify({ id, type, createdAt: at.toISOString(), data: refund ? { refund, transaction: stored } : { transaction: stored } });
}

/** The body of an event about a registration: `{id, type, createdAt, data: {webhook}}`. */
export function webhookEventBody(id: string, type: WebhookEventType, at: Date, webhook: WebhookSnapshot): string {
  return JSON.stringify({ id, type, createdAt: at.toISOString(), data: { webhook } });
}

/**
 * The exact text delivered and listed for a stored body: as stored, with the
 * Pix QR image drawn back in where it was (transactions' withQrImagesDrawn).
 */
export const deliveredBody = withQrImagesDrawn;

/** A page of stored bodies as the list answers it: the bodies are joined as they are delivered, never otherwise re-serialised. */
export function eventPage(bodies: string[], hasMore: boolean): string {
  return `{"data":[${bodies.map(deliveredBody).join(',')}],"hasMore":${hasMore}}`;
}
