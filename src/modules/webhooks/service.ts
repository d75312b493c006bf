/**
 * Webhook registrations and the seller's view of deliveries.
 *
 * Invariants: at most MAX_ACTIVE_WEBHOOKS active registrations per company
 * (checked with the company row locked, so concurrent creates cannot pass
 * the limit together); the signing secret is stored sealed and shown only in
 * the creation response; deleting a registration cancels its pending
 * deliveries in the same transaction; enabling a disabled one makes its held
 * deliveries due in the same transaction (delivery.ts disables).
 */
import type { Db } from '../../db/database.js';
import { transact } from '../../db/transact.js';
import type { Sealer } from '../../lib/aes-gcm.js';
import type { Clock } from '../../lib/clock.js';
import { DomainError, notFound, validationError, type Outcome } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import { isId, type IdGenerator } from '../../lib/ids.js';
import { DEFAULT_PAGE_SIZE, toPage } from '../../lib/paging.js';
import { lockCompany } from '../companies/index.js';
import type { EventType } from '../events/index.js';
import type { ResponseRecorder } from '../idempotency/index.js';
import * as repo from './repo.js';
import { MAX_ACTIVE_WEBHOOKS } from './rules.js';
import { newWebhookSecret } from './signature.js';
import { checkWebhookUrl, type Resolver } from './url-guard.js';
import { deliveryView, webhookView, type DeliveryView, type WebhookView } from './view.js';

export interface WebhookDeps {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  sealer: Sealer;
  allowLoopback: boolean;
  resolve: Resolver;
}

export class WebhookService {
  constructor(private readonly deps: WebhookDeps) {}

  /** `createdBy`: the dashboard member who made it (none through the API). */
  async create(
    companyId: string,
    input: { url: string; events: EventType[]; description?: string },
    recorder?: ResponseRecorder,
    createdBy?: string,
  ): Promise<Outcome<WebhookView & { secret: string }>> {
    const { db, clock, newId, sealer } = this.deps;
    if (!URL.canParse(input.url)) return validationError('url', PROBLEMS.url);
    // DNS is network: resolved before the database transaction opens.
    const verdict = await checkWebhookUrl(input.url, { allowLoopback: this.deps.allowLoopback, resolve: this.deps.resolve });
    if (!verdict.ok) return new DomainError('WEBHOOK_URL_INVALID', ERRORS.WEBHOOK_URL_INVALID.notAllowed({ reason: verdict.reason }), [{ field: 'url', message: verdict.reason }]);
    const now = clock.now();
    const secret = newWebhookSecret();
    return transact(db, async (trx) => {
      await lockCompany(trx, companyId);
      const active = await repo.activeWebhooks(trx, companyId);
      if (active.length >= MAX_ACTIVE_WEBHOOKS) {
        return new DomainError('WEBHOOK_LIMIT_REACHED', ERRORS.WEBHOOK_LIMIT_REACHED.limit({ max: MAX_ACTIVE_WEBHOOKS }));
      }
      const row = await repo.insertWebhook(trx, {
        id: newId('whk'),
        company_id: companyId,
        // The WHATWG serialization the guard checked, not the raw spelling (url-guard.ts).
        url: verdict.url.href,
        events: JSON.stringify(input.events),
        description: input.description ?? null,
        secret_sealed: sealer.seal(secret),
        active: true,
        created_at: now,
        deleted_at: null,
        created_by: createdBy ?? null,
      });
      const view = { ...webhookView(row), secret };
      await recorder?.save(trx, view);
      return view;
    });
  }

  async list(companyId: string): Promise<{ data: WebhookView[] }> {
    return { data: (await repo.activeWebhooks(this.deps.db, companyId)).map(webhookView) };
  }

  /** The dashboard's list: each active registration with the member who made it (null: made through the API). */
  async listWithCreator(companyId: string): Promise<{ data: (WebhookView & { createdBy: string | null })[] }> {
    return { data: (await repo.activeWebhooks(this.deps.db, companyId)).map((row) => ({ ...webhookView(row), createdBy: row.created_by })) };
  }

  /** The company's active registrations a member made (what their removal deletes or keeps). */
  async activeBy(companyId: string, userId: string, ex: Db = this.deps.db): Promise<WebhookView[]> {
    return (await repo.activeWebhooksBy(ex, companyId, userId)).map(webhookView);
  }

  /** Deletes (deactivates) the company's registrations a member made, as remove() does each, in the caller's transaction; answers them. */
  async removeBy(companyId: string, userId: string, ex: Db): Promise<WebhookView[]> {
    const rows = await repo.activeWebhooksBy(ex, companyId, userId);
    const now = this.deps.clock.now();
    const removed: WebhookView[] = [];
    for (const row of rows) if (await repo.deactivate(ex, companyId, row.id, now)) removed.push(webhookView(row));
    return removed;
  }

  async get(companyId: string, id: string): Promise<Outcome<WebhookView>> {
    const row = isId('whk', id) ? await repo.findWebhook(this.deps.db, companyId, id) : undefined;
    return row ? webhookView(row) : notFound('webhook');
  }

  /** Deactivates a registration; its pending deliveries are canceled with it. Nothing to answer (204). */
  async remove(companyId: string, id: string): Promise<Outcome<undefined>> {
    if (!isId('whk', id)) return notFound('webhook');
    const removed = await this.deps.db.transaction().execute((trx) => repo.deactivate(trx, companyId, id, this.deps.clock.now()));
    return removed ? undefined : notFound('webhook');
  }

  /**
   * Enables a registration the worker disabled (its deliveries all failed for
   * WEBHOOK_DISABLE_AFTER): what waited for it is sent at once, its retries
   * start over. An enabled one is answered as it is.
   */
  async enable(companyId: string, id: string, recorder?: ResponseRecorder): Promise<Outcome<WebhookView>> {
    if (!isId('whk', id)) return notFound('webhook');
    return transact(this.deps.db, async (trx) => {
      const row = await repo.enable(trx, companyId, id, this.deps.clock.now());
      if (!row) return notFound('webhook');
      const view = webhookView(row);
      await recorder?.save(trx, view);
      return view;
    });
  }

  /** Every delivery to a registration (deleted ones too), newest first, paged by delivery id, each with its attempts. */
  async deliveries(companyId: string, id: string, q: { limit?: number; startingAfter?: string }): Promise<Outcome<{ data: DeliveryView[]; hasMore: boolean }>> {
    if (!isId('whk', id)) return notFound('webhook');
    const limit = q.limit ?? DEFAULT_PAGE_SIZE;
    // One snapshot for the reads: an outcome recorded between them would show its attempt on a delivery
    // still PENDING (a 200 not `succeeded`); the worker records an attempt and its delivery's state in one commit.
    const read = await this.deps.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        if (!(await repo.webhookExists(trx, companyId, id))) return undefined;
        const page = toPage(await repo.listDeliveries(trx, companyId, id, { limit, startingAfter: q.startingAfter }), limit);
        return { page, rows: await repo.attemptsOf(trx, page.data.map((d) => d.id)) };
      });
    if (!read) return notFound('webhook');
    const { page, rows } = read;
    const attempts = new Map<string, repo.AttemptRow[]>();
    for (const a of rows) {
      const list = attempts.get(a.delivery_id);
      if (list) list.push(a);
      else attempts.set(a.delivery_id, [a]);
    }
    return { data: page.data.map((d) => deliveryView(d, attempts.get(d.id) ?? [])), hasMore: page.hasMore };
  }
}
