/** Transaction queries. The executor (pool or open transaction) is always the first parameter. */
import { sql, type InsertObject, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { insertRowFragment, type InsertFragment } from '../../db/one-statement.js';
import type { Database, TransactionRow } from '../../db/types.js';
import { rowsToRead } from '../../lib/paging.js';
import type { SearchKeys } from './search.js';

type Ex = Kysely<Database>;

/** A transaction's row as its INSERT writes it. */
function transactionValues(row: TransactionRow): InsertObject<Database, 'transactions'> {
  // A row read back holds the generated name_prefixes (migration 016), which no INSERT may set.
  const { name_prefixes: _generated, ...columns } = row as TransactionRow & { name_prefixes?: unknown };
  return {
    ...columns,
    buyer: JSON.stringify(row.buyer),
    payment_details: JSON.stringify(row.payment_details),
    metadata: row.metadata === null ? null : JSON.stringify(row.metadata),
    split_rules: row.split_rules === null ? null : JSON.stringify(row.split_rules),
  };
}

/** The INSERT of a transaction, unexecuted: a fragment of a larger statement (db/one-statement.ts). */
export function insertTransactionFragment(row: TransactionRow): InsertFragment {
  return insertRowFragment('transactions', transactionValues(row));
}

export async function findTransaction(ex: Ex, companyId: string, id: string, forUpdate = false): Promise<TransactionRow | undefined> {
  let query = ex.selectFrom('transactions').selectAll().where('company_id', '=', companyId).where('id', '=', id);
  if (forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The company a transaction belongs to (a receipt's link names the sale alone; its token is checked against both). */
export async function companyOfTransaction(ex: Ex, id: string): Promise<string | undefined> {
  const row = await ex.selectFrom('transactions').select('company_id').where('id', '=', id).executeTakeFirst();
  return row?.company_id;
}

/** The transaction a payment intent made (at most one). */
export async function findTransactionOfIntent(ex: Ex, paymentIntentId: string, forUpdate = false): Promise<TransactionRow | undefined> {
  let query = ex.selectFrom('transactions').selectAll().where('payment_intent_id', '=', paymentIntentId);
  if (forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

export interface ListFilter {
  limit: number;
  startingAfter?: string | undefined;
  status?: string | undefined;
  paymentMethod?: string | undefined;
  referenceId?: string | undefined;
  paymentLinkId?: string | undefined;
  createdFrom?: Date | undefined;
  createdTo?: Date | undefined;
}

/** Newest first; keyset paging on the time-ordered id (lib/paging.ts). */
export async function listTransactions(ex: Ex, companyId: string, f: ListFilter): Promise<TransactionRow[]> {
  let query = ex.selectFrom('transactions').selectAll().where('company_id', '=', companyId);
  if (f.startingAfter) query = query.where('id', '<', f.startingAfter);
  if (f.status) query = query.where('status', '=', f.status);
  if (f.paymentMethod) query = query.where('payment_method', '=', f.paymentMethod);
  if (f.referenceId) query = query.where('reference_id', '=', f.referenceId);
  if (f.paymentLinkId) query = query.where('payment_link_id', '=', f.paymentLinkId);
  if (f.createdFrom) query = query.where('created_at', '>=', f.createdFrom);
  if (f.createdTo) query = query.where('created_at', '<=', f.createdTo);
  return query.orderBy('id', 'desc').limit(rowsToRead(f.limit)).execute();
}

export interface SearchFilter {
  limit: number;
  startingAfter?: string | undefined;
  status?: string | undefined;
  paymentMethod?: string | undefined;
  paymentLinkId?: string | undefined;
  createdFrom?: Date | undefined;
  /** Exclusive: the start of the day after the last one asked. */
  createdBefore?: Date | undefined;
  search?: SearchKeys | undefined;
}

type Selection = SelectQueryBuilder<Database, 'transactions', object>;
type IdList = SelectQueryBuilder<Database, 'transactions', { id: string }>;

/** The filters and the keyset of a search, on the company's rows. */
function filtered(ex: Ex, companyId: string, f: SearchFilter): Selection {
  let query: Selection = ex.selectFrom('transactions').where('company_id', '=', companyId);
  if (f.startingAfter) query = query.where('id', '<', f.startingAfter);
  if (f.status) query = withStatus(query, f.status);
  if (f.paymentMethod) query = query.where('payment_method', '=', f.paymentMethod);
  if (f.paymentLinkId) query = query.where('payment_link_id', '=', f.paymentLinkId);
  if (f.createdFrom) query = query.where('created_at', '>=', f.createdFrom);
  if (f.createdBefore) query = query.where('created_at', '<', f.createdBefore);
  return query;
}

/**
 * A status, or what became of a paid sale (selection.ts REFUND_STATES): each
 * of those is the condition of its partial index (migration 023), written the
 * same way so the planner uses it.
 */
function withStatus(query: Selection, status: string): Selection {
  switch (status) {
    case 'CHARGED_BACK':
      return query.where('charged_back_cents', '>', 0);
    case 'REFUNDED':
      return query.where('refunded_cents', '>', 0).where('charged_back_cents', '=', 0).where(sql<boolean>`refunded_cents >= amount_cents`);
    case 'PARTIALLY_REFUNDED':
      return query.where('refunded_cents', '>', 0).where('charged_back_cents', '=', 0).where(sql<boolean>`refunded_cents < amount_cents`);
    default:
      return query.where('status', '=', status);
  }
}

/**
 * One branch per kind of key (search.ts), each answered by its own index and
 * cut at the page's size, their ids united: an OR of them would be one plan
 * for all, and a common name's words would drag the referenceId's lookup
 * into a scan.
 */
function matchingIds(ex: Ex, companyId: string, f: SearchFilter, keys: SearchKeys) {
  // Each branch a subquery of its own: a UNION's members cannot carry their own ORDER BY and LIMIT.
  const exact = searchConditions({ ...keys, nameWords: undefined }).map((match, i) =>
    ex.selectFrom(match(filtered(ex, companyId, f)).select('id').orderBy('id', 'desc').limit(rowsToRead(f.limit)).as(`k${i}`)).select('id'),
  );
  // Subqueries of different aliases select the same single column: united as id lists.
  const branches = [...exact, ...(keys.nameWords ? nameBranches(ex, companyId, f, keys.nameWords) : [])] as unknown as IdList[];
  return branches.slice(1).reduce((united, next) => united.union(next), branches[0]!);
}

/** Every typed word a prefix of a word of the name: the name's stored prefixes (migration 016) hold them all. */
const nameHasPrefixes = (words: string[], column = 'name_prefixes'): RawBuilder<boolean> =>
  sql<boolean>`${sql.ref(column)} @> ARRAY[${sql.join(words)}]::text[]`;

/** The newest rows a name search checks one by one before it asks the index for every match. */
const NAME_WINDOW = 2_000;

/**
 * A name's matches in two steps. First the newest NAME_WINDOW rows the
 * filters select, each one's stored prefixes compared: a common first name
 * fills the page there in a few milliseconds (through the index it would be
 * every one of its thousands of rows fetched and sorted). Then, only when
 * that did not fill the page (a one-time filter: PostgreSQL skips the scan
 * otherwise), every match through the GIN index, with no ORDER BY or LIMIT so
 * that it is a bitmap scan: given those, the planner, which can estimate
 * nothing of a rare or unseen prefix, would walk the id index backwards
 * through the whole company.
 */
function nameBranches(ex: Ex, companyId: string, f: SearchFilter, words: string[]) {
  const page = rowsToRead(f.limit);
  const newest = filtered(ex, companyId, f).select(['id', sql<string[]>`name_prefixes`.as('name_prefixes')]).orderBy('id', 'desc').limit(NAME_WINDOW);
  const inNewest = () => ex.selectFrom(newest.as('w')).select('w.id').where(nameHasPrefixes(words, 'w.name_prefixes')).orderBy('w.id', 'desc').limit(page);
  const recent = ex.selectFrom(inNewest().as('n0')).select('id');
  const older = filtered(ex, companyId, f)
    .select('id')
    .where(nameHasPrefixes(words))
    .where((eb) => eb(eb.selectFrom(inNewest().as('n1')).select((c) => c.fn.countAll<number>().as('n')), '<', page));
  return [recent, older];
}

/** The condition of each kind of key the search has (each answered by its index, migration 016). */
export function searchConditions(keys: SearchKeys): ((query: Selection) => Selection)[] {
  const conditions: ((query: Selection) => Selection)[] = [];
  const { id, paymentIntentId, referenceId, email, document, nameWords } = keys;
  if (id) conditions.push((q) => q.where('id', '=', id));
  if (paymentIntentId) conditions.push((q) => q.where('payment_intent_id', '=', paymentIntentId));
  if (referenceId) conditions.push((q) => q.where('reference_id', '=', referenceId));
  if (email) conditions.push((q) => q.where(sql`lower(buyer->>'email')`, '=', email));
  if (document) conditions.push((q) => q.where(sql`buyer->>'document'`, '=', document));
  if (nameWords) conditions.push((q) => q.where(nameHasPrefixes(nameWords)));
  return conditions;
}

/**
 * The company's transactions a search selects, newest first, keyset-paged
 * like listTransactions (one row beyond the page), its columns left to the
 * caller (the CSV export reads a few, not the stored documents).
 */
function searchTransactions(ex: Ex, companyId: string, f: SearchFilter): Selection {
  let query = filtered(ex, companyId, f);
  if (f.search) query = query.where('id', 'in', matchingIds(ex, companyId, f, f.search));
  return query.orderBy('id', 'desc').limit(rowsToRead(f.limit));
}

/** The rows of a search's page (the dashboard's list). */
export function searchRows(ex: Ex, companyId: string, f: SearchFilter): Promise<TransactionRow[]> {
  return searchTransactions(ex, companyId, f).selectAll().execute();
}

/** A transaction as the CSV export writes it: the columns it needs, none of the stored documents. */
export interface ExportedTransaction {
  id: string;
  /** ISO 8601 UTC, as the API writes times. */
  createdAt: string;
  paidAt: string | null;
  status: string;
  paymentMethod: string;
  installments: number;
  amountCents: number;
  feeCents: number;
  netAmountCents: number;
  refundedCents: number;
  referenceId: string;
  buyerName: string | null;
  buyerDocument: string | null;
  buyerEmail: string | null;
  paymentLinkId: string | null;
}

/** to_char's pattern of Date.prototype.toISOString (milliseconds, Z). */
const ISO_UTC = sql.lit('YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');

/** A batch of the CSV export: a search's rows with the export's columns only. */
export function exportedTransactions(ex: Ex, companyId: string, f: SearchFilter): Promise<ExportedTransaction[]> {
  return searchTransactions(ex, companyId, f)
    .select([
      'id',
      // Times as PostgreSQL writes them in ISO 8601 UTC: no Date made and formatted again per cell.
      sql<string>`to_char(created_at AT TIME ZONE 'UTC', ${ISO_UTC})`.as('createdAt'),
      sql<string | null>`to_char(paid_at AT TIME ZONE 'UTC', ${ISO_UTC})`.as('paidAt'),
      'status',
      'payment_method as paymentMethod',
      'installments',
      'amount_cents as amountCents',
      'fee_cents as feeCents',
      'net_amount_cents as netAmountCents',
      'refunded_cents as refundedCents',
      'reference_id as referenceId',
      sql<string | null>`buyer->>'name'`.as('buyerName'),
      sql<string | null>`buyer->>'document'`.as('buyerDocument'),
      sql<string | null>`buyer->>'email'`.as('buyerEmail'),
      'payment_link_id as paymentLinkId',
    ])
    .execute();
}

/** Every UPDATE of a transaction is a state change: its version goes up by one (events carry it). */
const nextVersion = sql<number>`version + 1`;

export async function updateTransactionStatus(
  ex: Ex,
  id: string,
  status: 'PAID' | 'CANCELED' | 'FAILED',
  at: Date,
): Promise<TransactionRow> {
  // Out of PENDING only: a sale that never took money (refused, canceled before payment) takes no fee and nets nothing.
  const when = status === 'PAID' ? { paid_at: at } : { fee_cents: 0, net_amount_cents: 0, ...(status === 'CANCELED' ? { canceled_at: at } : {}) };
  return ex
    .updateTable('transactions')
    .set({ status, updated_at: at, version: nextVersion, ...when })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface ReversedAmounts {
  fee_cents: number;
  net_amount_cents: number;
  sale_fee_cents: number;
  refunded_cents: number;
  charged_back_cents: number;
  charged_back_at: Date | null;
  status: 'PAID' | 'CANCELED';
  canceled_at: Date | null;
}

/** The amounts of a PAID transaction after a refund or chargeback (rules.ts computes them). */
export async function updateReversedAmounts(ex: Ex, id: string, amounts: ReversedAmounts, at: Date): Promise<TransactionRow> {
  return ex.updateTable('transactions').set({ ...amounts, updated_at: at, version: nextVersion }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** PENDING transactions whose payment window closed, claimed so several workers never take the same one. */
export async function claimOverdue(ex: Ex, now: Date, limit: number): Promise<TransactionRow[]> {
  return ex
    .selectFrom('transactions')
    .selectAll()
    .where('status', '=', 'PENDING')
    .where('cancel_at', '<=', now)
    .orderBy('cancel_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/**
 * The sales of a payment link that hold one of its slots: PAID ones, and
 * PENDING ones still payable (a Pix or boleto whose window is open). A sale
 * that failed, was canceled or whose window closed frees its slot.
 */
export async function countLiveOfLink(ex: Ex, paymentLinkId: string, now: Date): Promise<number> {
  const row = await ex
    .selectFrom('transactions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('payment_link_id', '=', paymentLinkId)
    .where((eb) => eb.or([eb('status', '=', 'PAID'), eb.and([eb('status', '=', 'PENDING'), eb('cancel_at', '>', now)])]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many PAID sales each of these payment links has (links without any are absent). */
export async function countPaidByLink(ex: Ex, companyId: string, paymentLinkIds: string[]): Promise<Map<string, number>> {
  if (paymentLinkIds.length === 0) return new Map();
  const rows = await ex
    .selectFrom('transactions')
    .select(['payment_link_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('company_id', '=', companyId)
    .where('payment_link_id', 'in', paymentLinkIds)
    .where('status', '=', 'PAID')
    .groupBy('payment_link_id')
    .execute();
  return new Map(rows.map((r) => [r.payment_link_id!, Number(r.n)]));
}
