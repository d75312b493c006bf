/**
 * The dashboard's selection of transactions: its query (the list's filters,
 * São Paulo dates, the search box) as the repository's filter, and the CSV
 * export of everything it selects in keyset batches.
 */
import type { Db } from '../../db/database.js';
import { toPage } from '../../lib/paging.js';
import { addDays, startOfSaoPauloDay } from '../../lib/sao-paulo-date.js';
import * as repo from './repo.js';
import { searchesSomething, searchKeys } from './search.js';

/** The dashboard's selection of transactions: the list's filters, São Paulo dates, and the search box. */
export interface SearchQuery {
  limit?: number;
  startingAfter?: string;
  /** A transaction's status, or one of REFUND_STATES (what became of a paid sale). */
  status?: string;
  paymentMethod?: string;
  paymentLinkId?: string;
  /** São Paulo dates (YYYY-MM-DD), both included. */
  from?: string;
  to?: string;
  q?: string;
}

/**
 * The dashboard's status filter beyond the stored status: a paid sale whose
 * money went back, in full (REFUNDED), in part (PARTIALLY_REFUNDED), or by a
 * chargeback (CHARGED_BACK, which wins over a refund: the bank took the rest).
 * Each is answered by a partial index (migration 023).
 */
export const REFUND_STATES = ['REFUNDED', 'PARTIALLY_REFUNDED', 'CHARGED_BACK'] as const;

/** Rows per query of an export: a round trip per thousand rows, memory bounded by two batches (one read ahead). */
const EXPORT_BATCH = 1_000;

/** A search's filter for the repository: São Paulo days as instants, the text as keys (none when it can match nothing). */
export function searchFilter(q: SearchQuery, limit: number): repo.SearchFilter {
  const keys = q.q?.trim() ? searchKeys(q.q) : undefined;
  return {
    limit,
    startingAfter: q.startingAfter,
    status: q.status,
    paymentMethod: q.paymentMethod,
    paymentLinkId: q.paymentLinkId,
    createdFrom: q.from ? startOfSaoPauloDay(q.from) : undefined,
    createdBefore: q.to ? startOfSaoPauloDay(addDays(q.to, 1)) : undefined,
    search: keys && searchesSomething(keys) ? keys : undefined,
  };
}

/**
 * Every transaction a search selects, newest first, in batches of
 * EXPORT_BATCH read by keyset as the consumer asks for them: a million rows
 * cost a thousand indexed queries and one batch of memory at a time.
 */
export async function* exportBatches(db: Db, companyId: string, q: Omit<SearchQuery, 'limit' | 'startingAfter'>): AsyncGenerator<repo.ExportedTransaction[]> {
  const batch = (startingAfter?: string) => repo.exportedTransactions(db, companyId, searchFilter({ ...q, ...(startingAfter ? { startingAfter } : {}) }, EXPORT_BATCH));
  // The next batch is asked for before this one is handed over: the database reads it while the caller writes this one.
  let next = batch();
  for (;;) {
    const page = toPage(await next, EXPORT_BATCH);
    if (page.hasMore) {
      next = batch(page.data[page.data.length - 1]!.id);
      // A consumer that stops early (the client went away) never awaits it: its failure is not an unhandled rejection.
      next.catch(() => undefined);
    }
    if (page.data.length > 0) yield page.data;
    if (!page.hasMore) return;
  }
}
