/**
 * The event log: what was (or will be) delivered, and resending it.
 *
 * Invariants: an event's body is written once (outbox.ts) and answered
 * byte for byte, in lists too; a resend is a new delivery of the same body
 * (same id, new timestamp and signature), enqueued in one database
 * transaction with the event read, so an event is never resent half-way.
 * No row locks: events are never updated.
 */
import type { Db } from '../../db/database.js';
import { transact } from '../../db/transact.js';
import type { Clock } from '../../lib/clock.js';
import { notFound, validationError, type Outcome } from '../../lib/domain-error.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import { isId } from '../../lib/ids.js';
import { DEFAULT_PAGE_SIZE, toPage } from '../../lib/paging.js';
import type { Delivery, DeliveryFanOut } from './outbox.js';
import * as repo from './repo.js';
import { deliveredBody, eventPage, type EventType } from './rules.js';

export interface EventDeps {
  db: Db;
  clock: Clock;
  fanOut: DeliveryFanOut;
}

export interface ResendResult {
  eventId: string;
  deliveries: Delivery[];
}

export class EventService {
  constructor(private readonly deps: EventDeps) {}

  /** Events newest first (with `after`: the later ones, oldest first), as one JSON text: the stored bodies joined into the page. */
  async list(companyId: string, q: { limit?: number; startingAfter?: string; after?: string; type?: EventType }): Promise<Outcome<string>> {
    if (q.after && q.startingAfter) return validationError('after', PROBLEMS.notWithStartingAfter);
    const limit = q.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await repo.listEvents(this.deps.db, companyId, { limit, startingAfter: q.startingAfter, after: q.after, type: q.type });
    const page = toPage(rows, limit);
    return eventPage(page.data.map((r) => r.body), page.hasMore);
  }

  /** One event exactly as delivered. */
  async get(companyId: string, id: string): Promise<Outcome<string>> {
    const row = isId('evt', id) ? await repo.findEvent(this.deps.db, companyId, id) : undefined;
    return row ? deliveredBody(row.body) : notFound('event');
  }

  /** Delivers an event again: to one registration, or to every active one that selected its type. */
  async resend(companyId: string, id: string, webhookId?: string): Promise<Outcome<ResendResult>> {
    if (!isId('evt', id)) return notFound('event');
    const now = this.deps.clock.now();
    return transact(this.deps.db, async (trx) => {
      const row = await repo.findEvent(trx, companyId, id);
      if (!row) return notFound('event');
      const event = { id: row.id, companyId, type: row.type };
      const deliveries = webhookId ? await this.deps.fanOut.toWebhook(trx, event, webhookId, now) : await this.deps.fanOut.toSubscribers(trx, event, now);
      if (!deliveries) return notFound('webhook');
      return { eventId: row.id, deliveries };
    });
  }
}
