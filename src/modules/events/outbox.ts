/**
 * The outbox. Every event is inserted in the same database transaction as the
 * state change that caused it, with the full transaction snapshot, so an event
 * exists if and only if its change committed. In that same transaction the
 * fan-out creates one delivery for every active webhook registration that
 * selected the event's type at that moment; the delivery worker sends them
 * later, at least once. The body is stored as the exact text that is delivered.
 *
 * Why a port: the deliveries are rows of the webhooks module's tables, and
 * webhooks depends on this module (the event catalogue, the bodies it sends).
 * So events defines what it needs (DeliveryFanOut), webhooks implements it,
 * and app.ts wires the two: the import graph stays one-way, webhooks → events.
 */
import type { Transaction } from 'kysely';
import type { InsertFragment } from '../../db/one-statement.js';
import type { Database } from '../../db/types.js';
import type { IdGenerator } from '../../lib/ids.js';
import * as repo from './repo.js';
import {
  eventBody,
  subjectEventBody,
  type IntentEventData,
  type IntentEventType,
  type TransactionSnapshotEventType,
  type TransactionSnapshot,
  type WebhookEventType,
  type WebhookSnapshot,
} from './rules.js';

/** An event as the fan-out needs it. */
export interface RecordedEvent {
  id: string;
  companyId: string;
  type: string;
}

export interface Delivery {
  id: string;
  webhookId: string;
}

/** Enqueues deliveries of an event, in the caller's database transaction (implemented by the webhooks module). */
export interface DeliveryFanOut {
  /** One delivery per active registration of the event's company that selected its type. */
  toSubscribers(trx: Transaction<Database>, event: RecordedEvent, at: Date): Promise<Delivery[]>;
  /** toSubscribers as an unexecuted INSERT, for a larger statement (db/one-statement.ts). */
  toSubscribersQuery(event: RecordedEvent, at: Date): InsertFragment;
  /** One delivery to the company's active registration `webhookId`; undefined when there is none. */
  toWebhook(trx: Transaction<Database>, event: RecordedEvent, webhookId: string, at: Date): Promise<Delivery[] | undefined>;
}

export class Outbox {
  constructor(private readonly deps: { newId: IdGenerator; fanOut: DeliveryFanOut }) {}

  /** Writes the event and its deliveries in `trx`; returns the event id. A refund event also carries the refund. */
  async record(trx: Transaction<Database>, at: Date, type: TransactionSnapshotEventType, transaction: TransactionSnapshot, refund?: object): Promise<string> {
    const id = this.deps.newId('evt');
    await repo.insertAll(trx, this.recordQueries(at, type, transaction, refund, id));
    return id;
  }

  /** The INSERTs of the event and of its deliveries, unexecuted, for a larger statement (db/one-statement.ts). */
  recordQueries(at: Date, type: TransactionSnapshotEventType, transaction: TransactionSnapshot, refund?: object, id = this.deps.newId('evt')): InsertFragment[] {
    const companyId = transaction.sellerId;
    const event = { id, companyId, type, transactionId: transaction.id, body: eventBody(id, type, at, transaction, refund), at };
    return [repo.insertEventFragment(event), this.deps.fanOut.toSubscribersQuery({ id, companyId, type }, at)];
  }

  /** Writes an event about a registration (webhook.disabled) and its deliveries to the subscribers of its type, in `trx`. */
  recordWebhookEvent(trx: Transaction<Database>, at: Date, type: WebhookEventType, companyId: string, webhook: WebhookSnapshot): Promise<string> {
    return this.recordAboutNoTransaction(trx, at, type, companyId, { webhook });
  }

  /** Writes an event about a payment intent that made no transaction (payment_intent.reversed) and its deliveries, in `trx`. */
  recordIntentEvent(trx: Transaction<Database>, at: Date, type: IntentEventType, companyId: string, data: IntentEventData): Promise<string> {
    return this.recordAboutNoTransaction(trx, at, type, companyId, data);
  }

  private async recordAboutNoTransaction(
    trx: Transaction<Database>,
    at: Date,
    type: WebhookEventType | IntentEventType,
    companyId: string,
    data: { webhook: WebhookSnapshot } | IntentEventData,
  ): Promise<string> {
    const id = this.deps.newId('evt');
    const event = { id, companyId, type, transactionId: null, body: subjectEventBody(id, type, at, data), at };
    await repo.insertAll(trx, [repo.insertEventFragment(event), this.deps.fanOut.toSubscribersQuery({ id, companyId, type }, at)]);
    return id;
  }
}
