/** The event log: what was (or will be) delivered, and resending it. */
import type { Db } from '../../db/database.js';
import { notFound } from '../../lib/domain-error.js';
import type { Clock } from '../../lib/clock.js';
import { isId, type IdGenerator } from '../../lib/ids.js';
import { enqueueDeliveries, type EventType } from './outbox.js';

export class EventService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly newId: IdGenerator,
  ) {}

  /** Events newest first. Bodies are returned as the exact delivered text, joined into the page. */
  async list(companyId: string, q: { limit?: number; startingAfter?: string; type?: EventType }): Promise<string> {
    const limit = q.limit ?? 20;
    let query = this.db.selectFrom('events').select(['id', 'body']).where('company_id', '=', companyId);
    if (q.startingAfter) query = query.where('id', '<', q.startingAfter);
    if (q.type) query = query.where('type', '=', q.type);
    const rows = await query.orderBy('id', 'desc').limit(limit + 1).execute();
    return `{"data":[${rows.slice(0, limit).map((r) => r.body).join(',')}],"hasMore":${rows.length > limit}}`;
  }

  /** One event exactly as delivered. */
  async get(companyId: string, id: string): Promise<string> {
    const row = isId('evt', id)
      ? await this.db.selectFrom('events').select('body').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst()
      : undefined;
    if (!row) throw notFound('Event');
    return row.body;
  }

  /**
   * A new delivery of the same event (same id and body; the attempt gets a new
   * timestamp and signature): to one registration, or to every active one
   * that selected the event's type.
   */
  async resend(companyId: string, id: string, webhookId?: string): Promise<{ eventId: string; deliveries: { id: string; webhookId: string }[] }> {
    if (!isId('evt', id)) throw notFound('Event');
    return this.db.transaction().execute(async (trx) => {
      const event = await trx.selectFrom('events').select(['id', 'type']).where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
      if (!event) throw notFound('Event');
      let query = trx.selectFrom('webhooks').select(['id', 'events']).where('company_id', '=', companyId).where('active', '=', true);
      if (webhookId) query = query.where('id', '=', webhookId);
      const hooks = (await query.execute()).filter((h) => webhookId || (h.events as string[]).includes(event.type));
      if (webhookId && hooks.length === 0) throw notFound('Webhook');
      const deliveries = await enqueueDeliveries(trx, this.newId, this.clock.now(), companyId, event.id, hooks.map((h) => h.id));
      return { eventId: event.id, deliveries };
    });
  }
}
