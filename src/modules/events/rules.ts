/**
 * The event catalogue and the exact text of an event. Pure: the id and the
 * time are passed in.
 *
 * The catalogue is the transactions module's lifecycle events, the
 * refunds module's outcomes, the payment intents' `payment_intent.reversed`
 * and the webhooks' own `webhook.disabled`; the data of a transaction event
 * is the full transaction snapshot at that moment, a refund event also
 * carries the refund (`data.refund`, written before `data.transaction`),
 * `payment_intent.reversed` carries the intent and the reversal
 * (`data.paymentIntent`, `data.reversal`) and `webhook.disabled` the
 * registration (`data.webhook`), neither a transaction.
 */
import { REFUND_EVENT_TYPES, type RefundEventType } from '../refunds/schemas.js';
import { TRANSACTION_EVENT_TYPES, withQrImagesDrawn, withoutQrImage, type TransactionEventType, type TransactionView } from '../transactions/index.js';

/** Events about a webhook registration itself (the webhooks module records them through the outbox). */
export const WEBHOOK_EVENT_TYPES = ['webhook.disabled'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * Events about a payment intent that made no transaction: a card approval
 * that came after its intent was recorded FAILED, reversed at the acquirer
 * (the payment intents module records it through the outbox).
 */
export const INTENT_EVENT_TYPES = ['payment_intent.reversed'] as const;
export type IntentEventType = (typeof INTENT_EVENT_TYPES)[number];

/** The events whose data is a transaction (and a refund's, its refund). */
export const TRANSACTION_SNAPSHOT_EVENT_TYPES = [...TRANSACTION_EVENT_TYPES, ...REFUND_EVENT_TYPES] as const;
export type TransactionSnapshotEventType = TransactionEventType | RefundEventType;

export const EVENT_TYPES = [...TRANSACTION_SNAPSHOT_EVENT_TYPES, ...INTENT_EVENT_TYPES, ...WEBHOOK_EVENT_TYPES] as const;
export type EventType = TransactionSnapshotEventType | IntentEventType | WebhookEventType;

/** What `payment_intent.reversed` carries: the intent (FAILED; events/schemas.ts EventPaymentIntent) and the reversal of the approval. */
export interface IntentEventData {
  paymentIntent: { id: string; status: 'FAILED'; amountCents: number; paymentMethod: 'CREDIT_CARD'; referenceId: string; metadata: Record<string, string> };
  reversal: { amountCents: number; reversedAt: string };
}

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

/** The body of an event about no transaction: `{id, type, createdAt, data}` (webhook.disabled: `{webhook}`; payment_intent.reversed: IntentEventData). */
export function subjectEventBody(id: string, type: WebhookEventType | IntentEventType, at: Date, data: { webhook: WebhookSnapshot } | IntentEventData): string {
  return JSON.stringify({ id, type, createdAt: at.toISOString(), data });
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
