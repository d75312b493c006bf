/** All SQL on webhooks, webhook_deliveries and webhook_attempts. The executor is always the first parameter. */
import { sql, type Insertable, type QueryCreator, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { fragmentKind, type InsertFragment, type Place } from '../../db/one-statement.js';
import type { Database, WebhookAttemptsTable, WebhookDeliveriesTable, WebhookRow, WebhooksTable } from '../../db/types.js';
import { rowsToRead } from '../../lib/paging.js';
import type { WebhookOutcome } from './rules.js';

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

/** A company's active registrations made by a dashboard member. */
export async function activeWebhooksBy(ex: Db, companyId: string, userId: string): Promise<WebhookRow[]> {
  return ex.selectFrom('webhooks').selectAll().where('company_id', '=', companyId).where('created_by', '=', userId).where('active', '=', true).orderBy('id').execute();
}

interface SubscribersEvent {
  companyId: string;
  eventId: string;
  type: string;
  ids: string[];
  at: Date;
}

/**
 * One PENDING delivery of an event, due at once, to each active registration
 * of the company that selected `type` (HELD, for later, to one that is
 * disabled), in one statement (every event pays
 * for this; a separate read of the registrations cost a round trip more).
 * The i-th registration by id gets `ids[i]`: the caller passes one id per
 * registration a company may have (MAX_ACTIVE_WEBHOOKS). Unexecuted: run
 * alone (insertDeliveriesToSubscribers) or in a larger statement (db/one-statement.ts).
 */
function deliveriesToSubscribersQuery(qc: QueryCreator<Database>, e: Omit<SubscribersEvent, 'type'> & { types: string }, at?: Place) {
  return qc
    .insertInto('webhook_deliveries')
    .columns(['id', 'company_id', 'webhook_id', 'event_id', 'state', 'attempts', 'next_attempt_at', 'locked_until', 'created_at', 'updated_at'])
    .expression(sql`
      SELECT (${e.ids}::text[])[s.n], s.company_id, s.id, ${e.eventId}, s.state, 0, ${e.at}, NULL::timestamptz, ${e.at}, ${e.at}
      FROM (
        SELECT w.id, w.company_id, row_number() OVER (ORDER BY w.id) AS n,
               CASE WHEN w.disabled_at IS NULL THEN 'PENDING' ELSE 'HELD' END AS state
        FROM webhooks w
        WHERE w.company_id = ${e.companyId} AND w.active AND w.events @> ${e.types}::jsonb
          ${at?.guarded ? sql`AND EXISTS (SELECT 1 FROM ${sql.table(at.first)})` : sql``}
      ) s`);
}

const deliveriesToSubscribers = fragmentKind('rows', deliveriesToSubscribersQuery, { readsGuard: true });

/** The event's values as deliveriesToSubscribersQuery reads them. */
const subscribersValues = ({ type, ...e }: SubscribersEvent) => ({ ...e, types: JSON.stringify([type]) });

/** deliveriesToSubscribersQuery as a fragment of a larger statement (db/one-statement.ts); after a guard it makes no delivery unless the guard matched. */
export const deliveriesToSubscribersFragment = (e: SubscribersEvent): InsertFragment => deliveriesToSubscribers(subscribersValues(e));

/** deliveriesToSubscribersQuery, executed: the deliveries made. */
export async function insertDeliveriesToSubscribers(ex: Db, e: SubscribersEvent): Promise<{ id: string; webhookId: string }[]> {
  const rows = await deliveriesToSubscribersQuery(ex, subscribersValues(e)).returning(['id', 'webhook_id']).execute();
  return rows.map((r) => ({ id: r.id, webhookId: r.webhook_id }));
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
  await ex.updateTable('webhook_deliveries').set({ state: 'CANCELED', updated_at: at }).where('webhook_id', '=', id).where('state', 'in', ['PENDING', 'HELD']).execute();
  return true;
}

/**
 * Enables a disabled registration again: its failures are forgotten and its
 * held deliveries are due at once. Returns the registration, or undefined
 * when the company has no active registration `id`; one already enabled is
 * answered as it is.
 */
export async function enable(ex: Db, companyId: string, id: string, at: Date): Promise<WebhookRow | undefined> {
  const row = await ex
    .updateTable('webhooks')
    .set({ disabled_at: null, failing_since: null })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('active', '=', true)
    .returningAll()
    .executeTakeFirst();
  if (!row) return undefined;
  await ex.updateTable('webhook_deliveries').set({ state: 'PENDING', next_attempt_at: at, updated_at: at }).where('webhook_id', '=', id).where('state', '=', 'HELD').execute();
  return row;
}


/**
 * Follows each registration's run of failures and disables those failing for
 * `disableAfterMs`, in the caller's transaction; returns the registrations it
 * disabled. A success ends the run (`failing_since` NULL); the first failure
 * after one starts it. Only rows whose value changes are written, so a
 * registration whose deliveries keep succeeding costs a read. Their held
 * deliveries are the caller's to hold (holdDeliveries).
 */
export async function trackFailures(ex: Db, outcomes: readonly WebhookOutcome[], disableAfterMs: number): Promise<WebhookRow[]> {
  if (outcomes.length === 0) return [];
  // Row locks in id order, as settleAttempts takes the deliveries'.
  const sorted = [...outcomes].sort((a, b) => (a.webhookId < b.webhookId ? -1 : a.webhookId > b.webhookId ? 1 : 0));
  const rows = sorted.map((o) => sql`(${o.webhookId}::text, ${o.ok}::boolean, ${o.at}::timestamptz, ${new Date(o.at.getTime() - disableAfterMs)}::timestamptz)`);
  const updated = await sql<WebhookRow>`
    UPDATE webhooks AS w
    SET failing_since = CASE WHEN v.ok THEN NULL ELSE COALESCE(w.failing_since, v.at) END,
        disabled_at = CASE WHEN NOT v.ok AND w.failing_since <= v.limit_at THEN v.at ELSE NULL END
    FROM (VALUES ${sql.join(rows)}) AS v (id, ok, at, limit_at)
    WHERE w.id = v.id
      AND w.active
      AND w.disabled_at IS NULL
      AND CASE WHEN v.ok THEN w.failing_since IS NOT NULL ELSE w.failing_since IS NULL OR w.failing_since <= v.limit_at END
    RETURNING w.*`.execute(ex);
  return updated.rows.filter((r) => r.disabled_at !== null);
}

/** The pending deliveries of disabled registrations wait (HELD) until enable(). */
export async function holdDeliveries(ex: Db, webhookIds: string[], at: Date): Promise<void> {
  if (webhookIds.length === 0) return;
  await ex.updateTable('webhook_deliveries').set({ state: 'HELD', updated_at: at }).where('webhook_id', 'in', webhookIds).where('state', '=', 'PENDING').execute();
}

// --- deliveries ---

/** New deliveries of one event, due at once (PENDING), or waiting for their disabled registration (HELD). */
export async function insertDeliveries(
  ex: Db,
  rows: { id: string; companyId: string; webhookId: string; eventId: string }[],
  at: Date,
  state: 'PENDING' | 'HELD' = 'PENDING',
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
        state,
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

/** The outcome of attempt `claimedAttempts + 1` of a delivery claimed under the lease `leaseEnd`. */
export interface AttemptOutcome {
  deliveryId: string;
  claimedAttempts: number;
  /** The lease the claim set; still in place only if no other worker re-claimed the delivery since. */
  leaseEnd: Date;
  next: { state: 'SUCCEEDED' | 'PENDING' | 'FAILED'; nextAttemptAt: Date; at: Date };
  attempt: Insertable<WebhookAttemptsTable>;
}

/**
 * Records a batch of attempt outcomes in the caller's transaction with two
 * statements, whatever the batch size: one UPDATE … FROM (VALUES …) for the
 * deliveries' next state and one multi-row INSERT of the attempts that UPDATE
 * accepted. Each row is guarded by the attempt count and the lease its worker
 * claimed: a delivery whose lease ran out and was re-claimed by another worker
 * (a new `locked_until`), or already recorded (a new attempt count), is left
 * alone and its stale attempt is not logged. A delivery canceled while in
 * flight (registration deleted) stays CANCELED, but the request did reach the
 * receiver, so its attempt is counted and logged; one held while in flight
 * (its registration disabled) stays HELD unless the attempt succeeded.
 * Returns the ids recorded.
 */
export async function settleAttempts(ex: Db, outcomes: readonly AttemptOutcome[]): Promise<Set<string>> {
  if (outcomes.length === 0) return new Set();
  // Row locks in id order, so two batches (or a batch and a cancel) lock in the same order.
  const sorted = [...outcomes].sort((a, b) => (a.deliveryId < b.deliveryId ? -1 : a.deliveryId > b.deliveryId ? 1 : 0));
  // Typed casts: VALUES parameters are otherwise resolved as text.
  const rows = sorted.map(
    (o) =>
      sql`(${o.deliveryId}::text, ${o.claimedAttempts}::int, ${o.leaseEnd}::timestamptz, ${o.next.state}::text, ${o.next.nextAttemptAt}::timestamptz, ${o.next.at}::timestamptz)`,
  );
  const updated = await sql<{ id: string }>`
    UPDATE webhook_deliveries AS d
    SET attempts = v.claimed + 1,
        state = CASE WHEN d.state = 'PENDING' OR (d.state = 'HELD' AND v.state = 'SUCCEEDED') THEN v.state ELSE d.state END,
        next_attempt_at = CASE WHEN d.state = 'PENDING' THEN v.next_attempt_at ELSE d.next_attempt_at END,
        locked_until = NULL,
        updated_at = v.at
    FROM (VALUES ${sql.join(rows)}) AS v (id, claimed, lease_end, state, next_attempt_at, at)
    WHERE d.id = v.id
      AND d.attempts = v.claimed
      AND d.locked_until = v.lease_end
      AND d.state IN ('PENDING', 'HELD', 'CANCELED')
    RETURNING d.id`.execute(ex);
  const recorded = new Set(updated.rows.map((r) => r.id));
  const attempts = sorted.filter((o) => recorded.has(o.deliveryId)).map((o) => o.attempt);
  if (attempts.length > 0) await ex.insertInto('webhook_attempts').values(attempts).execute();
  return recorded;
}

// --- the seller's delivery log ---

export type DeliveryRow = Pick<Selectable<WebhookDeliveriesTable>, 'id' | 'event_id' | 'state' | 'next_attempt_at'>;

/** A registration's deliveries, newest first; keyset paging on the time-ordered id (lib/paging.ts). */
export async function listDeliveries(ex: Db, companyId: string, webhookId: string, f: { limit: number; startingAfter?: string | undefined }): Promise<DeliveryRow[]> {
  let query = ex
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_id', 'state', 'next_attempt_at'])
    .where('company_id', '=', companyId)
    .where('webhook_id', '=', webhookId);
  if (f.startingAfter) query = query.where('id', '<', f.startingAfter);
  return query.orderBy('id', 'desc').limit(rowsToRead(f.limit)).execute();
}

/** Every attempt of these deliveries, the latest of each first (the caller groups them by delivery). */
export async function attemptsOf(ex: Db, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return ex.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('attempt', 'desc').execute();
}
