/**
 * Webhook registrations and the seller's view of deliveries.
 *
 * Invariants: at most MAX_ACTIVE_WEBHOOKS active registrations per company
 * (checked with the company row locked, so concurrent creates cannot pass
 * the limit together); the signing secret is stored sealed and shown only in
 * the creation response; deleting a registration cancels its pending
 * deliveries in the same transaction.
 */
import type { Db } from '../../db/database.js';
import type { WebhookRow } from '../../db/types.js';
import { AppError } from '../../http/errors.js';
import { notFound, validationError } from '../../lib/domain-error.js';
import type { ResponseRecorder } from '../idempotency/index.js';
import type { Sealer } from '../../lib/aes-gcm.js';
import type { Clock } from '../../lib/clock.js';
import { isId, type IdGenerator } from '../../lib/ids.js';
import type { EventType } from '../events/index.js';
import * as repo from './repo.js';
import { MAX_ACTIVE_WEBHOOKS } from './schemas.js';
import { newWebhookSecret } from './signature.js';
import { checkWebhookUrl, type Resolver } from './url-guard.js';

export interface WebhookDeps {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  sealer: Sealer;
  allowLoopback: boolean;
  resolve: Resolver;
}

export interface WebhookView {
  id: string;
  url: string;
  events: EventType[];
  description?: string;
  active: boolean;
  createdAt: string;
}

export function webhookView(row: WebhookRow): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: row.events as EventType[],
    ...(row.description !== null ? { description: row.description } : {}),
    active: row.active,
    createdAt: row.created_at.toISOString(),
  };
}

export class WebhookService {
  constructor(private readonly deps: WebhookDeps) {}

  async create(
    companyId: string,
    input: { url: string; events: EventType[]; description?: string },
    recorder?: ResponseRecorder,
  ): Promise<WebhookView & { secret: string }> {
    const { db, clock, newId, sealer } = this.deps;
    try {
      new URL(input.url);
    } catch {
      throw validationError('url', 'is not a valid URL');
    }
    const verdict = await checkWebhookUrl(input.url, { allowLoopback: this.deps.allowLoopback, resolve: this.deps.resolve });
    if (!verdict.ok) throw new AppError('WEBHOOK_URL_INVALID', `The webhook URL is not allowed: ${verdict.reason}`, [{ field: 'url', message: verdict.reason }]);
    const now = clock.now();
    const secret = newWebhookSecret();
    return db.transaction().execute(async (trx) => {
      await trx.selectFrom('companies').select('id').where('id', '=', companyId).forUpdate().executeTakeFirstOrThrow();
      const active = await repo.activeWebhooks(trx, companyId);
      if (active.length >= MAX_ACTIVE_WEBHOOKS) {
        throw new AppError('WEBHOOK_LIMIT_REACHED', `A company may have at most ${MAX_ACTIVE_WEBHOOKS} active webhooks; delete one first`);
      }
      const row = await trx
        .insertInto('webhooks')
        .values({
          id: newId('whk'),
          company_id: companyId,
          url: input.url,
          events: JSON.stringify(input.events),
          description: input.description ?? null,
          secret_sealed: sealer.seal(secret),
          active: true,
          created_at: now,
          deleted_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const view = { ...webhookView(row), secret };
      await recorder?.save(trx, view);
      return view;
    });
  }

  async list(companyId: string): Promise<{ data: WebhookView[] }> {
    return { data: (await repo.activeWebhooks(this.deps.db, companyId)).map(webhookView) };
  }

  async get(companyId: string, id: string): Promise<WebhookView> {
    const row = isId('whk', id) ? await repo.findWebhook(this.deps.db, companyId, id) : undefined;
    if (!row) throw notFound('Webhook');
    return webhookView(row);
  }

  async remove(companyId: string, id: string): Promise<void> {
    if (!isId('whk', id)) throw notFound('Webhook');
    const removed = await this.deps.db.transaction().execute((trx) => repo.deactivate(trx, companyId, id, this.deps.clock.now()));
    if (!removed) throw notFound('Webhook');
  }

  /** Every attempt made for a registration, newest first, paged by attempt id. */
  async attempts(companyId: string, id: string, q: { limit?: number; startingAfter?: string }) {
    if (!isId('whk', id)) throw notFound('Webhook');
    const hook = await this.deps.db.selectFrom('webhooks').select('id').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
    if (!hook) throw notFound('Webhook');
    const limit = q.limit ?? 20;
    let query = this.deps.db.selectFrom('webhook_attempts').selectAll().where('company_id', '=', companyId).where('webhook_id', '=', id);
    if (q.startingAfter) query = query.where('id', '<', q.startingAfter);
    const rows = await query.orderBy('id', 'desc').limit(limit + 1).execute();
    const data = rows.slice(0, limit).map((r) => ({
      id: r.id,
      eventId: r.event_id,
      attempt: r.attempt,
      attemptedAt: r.attempted_at.toISOString(),
      ...(r.status_code !== null ? { statusCode: r.status_code } : {}),
      ...(r.error !== null ? { error: r.error } : {}),
      durationMs: r.duration_ms,
      succeeded: r.succeeded,
    }));
    return { data, hasMore: rows.length > limit };
  }
}
