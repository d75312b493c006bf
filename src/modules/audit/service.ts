/**
 * The audit log: append-only lines of who did what in a company's dashboard.
 * `record` writes in the caller's executor (its transaction when it has one),
 * so an entry exists exactly when its change does. Entries are kept a year;
 * the worker's purge removes older ones in bounded batches.
 */
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { DEFAULT_PAGE_SIZE, rowsToRead, toPage, withNextCursor } from '../../lib/paging.js';
import type { AuditEntry, AuditRecorder } from './entry.js';
import * as repo from './repo.js';

export const AUDIT_RETENTION_MS = 365 * 86_400_000;
const PURGE_BATCH = 1_000;

export interface AuditView {
  id: string;
  at: string;
  userId: string | null;
  email: string;
  action: string;
  target: string | null;
  ip: string;
  details: Record<string, string | number | boolean> | null;
}

export interface AuditPage {
  data: AuditView[];
  hasMore: boolean;
  nextCursor: string | null;
}

export interface AuditQuery {
  userId?: string | undefined;
  action?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

export class AuditLog implements AuditRecorder {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly newId: IdGenerator,
  ) {}

  async record(executor: Db, entry: AuditEntry): Promise<void> {
    await repo.insertEntry(executor, this.newId('aud'), this.clock.now(), entry);
  }

  /** A company's entries, newest first; `cursor` is the last id of the previous page. */
  async list(companyId: string, query: AuditQuery): Promise<AuditPage> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await repo.listEntries(this.db, companyId, { userId: query.userId, action: query.action, before: query.cursor }, rowsToRead(limit));
    const page = toPage(rows, limit);
    return withNextCursor({
      data: page.data.map((r) => ({
        id: r.id,
        at: new Date(r.at).toISOString(),
        userId: r.user_id,
        email: r.email,
        action: r.action,
        target: r.target,
        ip: r.ip,
        details: r.details,
      })),
      hasMore: page.hasMore,
    });
  }

  /** Deletes one batch of entries over a year old; answers how many went. */
  async purge(): Promise<number> {
    return repo.purgeBefore(this.db, new Date(this.clock.now().getTime() - AUDIT_RETENTION_MS), PURGE_BATCH);
  }
}
