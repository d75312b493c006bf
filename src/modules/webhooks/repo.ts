/** All SQL on webhooks, webhook_deliveries and webhook_attempts. The executor is always the first parameter. */
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { WebhookAttemptsTable, WebhookRow, WebhooksTable } from '../../db/types.js';
import { rowsToRead } from '../../lib/paging.js';

export type AttemptRow = Selectable<WebhookAttemptsTable>;

// --- registrations ---

export async function insertWebhook(ex: Db, row: Insertable<WebhooksTable>): Promise<WebhookRow> {
  return ex.insertInto('webhooks').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findWebhook(ex: Db, companyId: string, id: string): Promise<WebhookRow | undefined> {
  return ex.selectFrom('webhooks').selectAll().where('company_id', '=', companyId).where('id', '=', id).where('active', '=', true).executeTakeFirst();
}

/** Whether the company ever registered `id` (a deleted registration keeps its delivery log). */
export async function webhookExists(ex: Db, companyId: string, id: string): Promise<boolean> {
  return (await ex.selectFrom('webhooks').select('id').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst()) !== undefined;
}

export async function activeWebhooks(ex: Db, companyId: string): Promise<WebhookRow[]> {
  return ex.selectFrom('webhooks').selectAll().where('company_id', '=', companyId).where('active', '=', true).orderBy('id').execute();
}

/** Active registrations of a company that selected `type`. */
export async function subscribedWebhookIds(ex: Db, companyId: string, type: string): Promise<string[]> {
  const rows = await ex
    .selectFrom('webhooks')
    .select('id')
    .where('company_id', '=', companyId)
    .where('active', '=', true)
    .where(sql<boolean>`events @> ${JSON.stringify([type])}::jsonb`)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Deactivates a registration and cancels its pending deliveries; false when there was none. */
export async function deactivate(ex: Db, companyId: string, id: string, at: Date): Promise<boolean> {
  const row = await ex
    .updateTable('webhooks')
    .set({ active: false, deleted_at: at })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('active', '=', true)
    .returning('id')
    .executeTakeFirst();
  if (!row) return false;
  await ex.updateTable('webhook_deliveries').set({ state: 'CANCELED', updated_at: at }).where('webhook_id', '=', id).where('state', '=', 'PENDING').execute();
  return true;
}

// --- deliveries ---

/** New PENDING deliveries of one event, due at once. */
export async function insertDeliveries(
  ex: Db,
  rows: { id: string; companyId: string; webhookId: string; eventId: string }[],
  at: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await ex
    .insertInto('webhook_deliveries')
    .values(
      rows.map((r) => ({
        id: r.id,
        company_id: r.companyId,
        webhook_id: r.webhookId,
        event_id: r.eventId,
        state: 'PENDING' as const,
        attempts: 0,
        next_attempt_at: at,
        locked_until: null,
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
}

export interface ClaimedDelivery {
  id: string;
  company_id: string;
  webhook_id: string;
  event_id: string;
  attempts: number;
  url: string;
  secret_sealed: string;
}

/**
 * Claims up to `limit` due deliveries whose lease (if any) ran out, and leases
 * them until `leaseEnd`, in the caller's transaction: rows locked by another
 * worker's claim are skipped, so two workers never take the same delivery.
 */
export async function claimDue(ex: Db, now: Date, leaseEnd: Date, limit: number): Promise<ClaimedDelivery[]> {
  const due = await ex
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('state', '=', 'PENDING')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .orderBy('next_attempt_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  if (due.length === 0) return [];
  const ids = due.map((d) => d.id);
  await ex.updateTable('webhook_deliveries').set({ locked_until: leaseEnd }).where('id', 'in', ids).execute();
  return ex
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select(['d.id', 'd.company_id', 'd.webhook_id', 'd.event_id', 'd.attempts', 'w.url', 'w.secret_sealed'])
    .where('d.id', 'in', ids)
    .execute();
}

/**
 * Records the result of attempt `claimedAttempts + 1` on a PENDING delivery,
 * guarded by the attempt count claimed: false when the lease was lost or the
 * delivery is no longer PENDING.
 */
export async function settleAttempt(
  ex: Db,
  id: string,
  claimedAttempts: number,
  next: { state: 'SUCCEEDED' | 'PENDING' | 'FAILED'; nextAttemptAt: Date; at: Date },
): Promise<boolean> {
  const row = await ex
    .updateTable('webhook_deliveries')
    .set({ attempts: claimedAttempts + 1, state: next.state, next_attempt_at: next.nextAttemptAt, locked_until: null, updated_at: next.at })
    .where('id', '=', id)
    .where('state', '=', 'PENDING') // a registration deleted meanwhile stays CANCELED
    .where('attempts', '=', claimedAttempts)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Counts an attempt on a delivery canceled while it was in flight; false when the lease was lost. */
export async function countCanceledAttempt(ex: Db, id: string, claimedAttempts: number, at: Date): Promise<boolean> {
  const row = await ex
    .updateTable('webhook_deliveries')
    .set({ attempts: claimedAttempts + 1, locked_until: null, updated_at: at })
    .where('id', '=', id)
    .where('state', '=', 'CANCELED')
    .where('attempts', '=', claimedAttempts)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

// --- attempts (the seller's delivery log) ---

export async function insertAttempt(ex: Db, row: Insertable<WebhookAttemptsTable>): Promise<void> {
  await ex.insertInto('webhook_attempts').values(row).execute();
}

/** Newest first; keyset paging on the time-ordered id (lib/paging.ts). */
export async function listAttempts(ex: Db, companyId: string, webhookId: string, f: { limit: number; startingAfter?: string | undefined }): Promise<AttemptRow[]> {
  let query = ex.selectFrom('webhook_attempts').selectAll().where('company_id', '=', companyId).where('webhook_id', '=', webhookId);
  if (f.startingAfter) query = query.where('id', '<', f.startingAfter);
  return query.orderBy('id', 'desc').limit(rowsToRead(f.limit)).execute();
}
