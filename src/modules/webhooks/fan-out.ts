/**
 * The webhooks side of the outbox (events/outbox.ts): the deliveries of an
 * event are rows of this module's tables, enqueued in the caller's database
 * transaction, so the set of receivers is fixed at the moment of the event.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { IdGenerator } from '../../lib/ids.js';
import type { Delivery, DeliveryFanOut, RecordedEvent } from '../events/index.js';
import * as repo from './repo.js';
import { MAX_ACTIVE_WEBHOOKS } from './rules.js';

export function webhookFanOut(newId: IdGenerator): DeliveryFanOut {
  async function enqueue(trx: Transaction<Database>, event: RecordedEvent, webhookIds: string[], at: Date, state: 'PENDING' | 'HELD'): Promise<Delivery[]> {
    const rows = webhookIds.map((webhookId) => ({ id: newId('dlv'), companyId: event.companyId, webhookId, eventId: event.id }));
    await repo.insertDeliveries(trx, rows, at, state);
    return rows.map((r) => ({ id: r.id, webhookId: r.webhookId }));
  }
  // One id per registration the company may have: the i-th registration by id gets the i-th (repo.ts).
  const subscribers = (event: RecordedEvent, at: Date) => ({
    companyId: event.companyId,
    eventId: event.id,
    type: event.type,
    ids: Array.from({ length: MAX_ACTIVE_WEBHOOKS }, () => newId('dlv')),
    at,
  });
  return {
    async toSubscribers(trx, event, at) {
      return repo.insertDeliveriesToSubscribers(trx, subscribers(event, at));
    },
    toSubscribersQuery(event, at) {
      const e = subscribers(event, at);
      return repo.deliveriesToSubscribersFragment(e);
    },
    async toWebhook(trx, event, webhookId, at) {
      const hook = await repo.findWebhook(trx, event.companyId, webhookId);
      // A resend to a disabled registration waits with its other deliveries until it is enabled again.
      return hook ? enqueue(trx, event, [hook.id], at, hook.disabled_at === null ? 'PENDING' : 'HELD') : undefined;
    },
  };
}
