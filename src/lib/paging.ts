/**
 * Keyset paging, one policy for every list: newest first by the time-ordered
 * id, `startingAfter` is the last id of the previous page, and one row beyond
 * the page is read to answer `hasMore`.
 */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** How many rows a list query reads for a page of `limit`. */
export const rowsToRead = (limit: number): number => limit + 1;

/** The page of `limit` out of the rows read, and whether more follow. */
export function toPage<T>(rows: T[], limit: number): { data: T[]; hasMore: boolean } {
  return { data: rows.slice(0, limit), hasMore: rows.length > limit };
}

/** A page with the cursor of the next one (the last id shown), or null on the last page. */
export function withNextCursor<T extends { id: string }>(page: { data: T[]; hasMore: boolean }): { data: T[]; hasMore: boolean; nextCursor: string | null } {
  return { ...page, nextCursor: page.hasMore ? page.data[page.data.length - 1]!.id : null };
}
