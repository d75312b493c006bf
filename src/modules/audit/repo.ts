/** All SQL on audit_log. The executor is always the first parameter. Rows are only inserted, read and purged after a year. */
import type { Db } from '../../db/database.js';
import type { AuditEntry } from './entry.js';

export async function insertEntry(ex: Db, id: string, at: Date, entry: AuditEntry): Promise<void> {
  await ex
    .insertInto('audit_log')
    .values({
      id,
      company_id: entry.companyId,
      user_id: entry.userId ?? null,
      email: entry.email,
      action: entry.action,
      target: entry.target ?? null,
      ip: entry.ip,
      details: entry.details ? JSON.stringify(entry.details) : null,
      at,
    })
    .execute();
}

export interface AuditFilter {
  userId?: string | undefined;
  action?: string | undefined;
  /** The last id of the previous page: the page holds older entries. */
  before?: string | undefined;
}

export async function listEntries(ex: Db, companyId: string, filter: AuditFilter, rows: number) {
  let query = ex.selectFrom('audit_log').selectAll().where('company_id', '=', companyId);
  if (filter.userId) query = query.where('user_id', '=', filter.userId);
  if (filter.action) query = query.where('action', '=', filter.action);
  if (filter.before) query = query.where('id', '<', filter.before);
  return query.orderBy('id', 'desc').limit(rows).execute();
}

/** Deletes at most `batch` entries older than `before`; answers how many. */
export async function purgeBefore(ex: Db, before: Date, batch: number): Promise<number> {
  const result = await ex
    .deleteFrom('audit_log')
    .where('id', 'in', (q) => q.selectFrom('audit_log').select('id').where('at', '<', before).limit(batch))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
