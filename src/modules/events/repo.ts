/** All SQL on the events table. The executor is always the first parameter. */
import type { Db } from '../../db/database.js';
import { builderOf, insertRowFragment, type InsertFragment } from '../../db/one-statement.js';
import { rowsToRead } from '../../lib/paging.js';
import type { EventType } from './rules.js';

export interface StoredEvent {
  id: string;
  type: string;
  body: string;
}

interface NewEvent {
  id: string;
  companyId: string;
  type: EventType;
  transactionId: string | null;
  body: string;
  at: Date;
}

/** The INSERT of an event, unexecuted (run alone, or as a fragment of a larger statement: db/one-statement.ts). */
export function insertEventFragment(row: NewEvent): InsertFragment {
  const values = { id: row.id, company_id: row.companyId, type: row.type, transaction_id: row.transactionId, body: row.body, created_at: row.at };
  return insertRowFragment('events', values);
}

/** Runs an event's INSERTs (the event, its deliveries) one by one in the caller's transaction. */
export async function insertAll(trx: Db, fragments: InsertFragment[]): Promise<void> {
  for (const fragment of fragments) await builderOf(fragment)(trx).execute();
}

/**
 * Newest first; keyset paging on the time-ordered id (lib/paging.ts). With
 * `after`, the other way: the events with a greater id, oldest first.
 */
export async function listEvents(
  ex: Db,
  companyId: string,
  f: { limit: number; startingAfter?: string | undefined; after?: string | undefined; type?: EventType | undefined },
): Promise<StoredEvent[]> {
  let query = ex.selectFrom('events').select(['id', 'type', 'body']).where('company_id', '=', companyId);
  if (f.startingAfter) query = query.where('id', '<', f.startingAfter);
  if (f.after) query = query.where('id', '>', f.after);
  if (f.type) query = query.where('type', '=', f.type);
  return query.orderBy('id', f.after ? 'asc' : 'desc').limit(rowsToRead(f.limit)).execute();
}

export async function findEvent(ex: Db, companyId: string, id: string): Promise<StoredEvent | undefined> {
  return ex.selectFrom('events').select(['id', 'type', 'body']).where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
}

/** Events by id (the delivery worker reads the bodies it sends). */
export async function eventsByIds(ex: Db, ids: string[]): Promise<StoredEvent[]> {
  if (ids.length === 0) return [];
  return ex.selectFrom('events').select(['id', 'type', 'body']).where('id', 'in', ids).execute();
}
