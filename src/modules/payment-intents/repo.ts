/** Payment intent queries. The executor (pool or open transaction) is always the first parameter. */
import { sql, type Kysely, type Updateable } from 'kysely';
import { fragmentKind, isUniqueViolation, insertRowFragment, type InsertFragment, type UpdateFragment } from '../../db/one-statement.js';
import type { Database, NewPaymentIntent, PaymentIntentRow, PaymentIntentsTable } from '../../db/types.js';
import { UNCONFIRMED_STATUSES } from './rules.js';

type Ex = Kysely<Database>;

function intentValues(row: PaymentIntentRow): NewPaymentIntent {
  return {
    ...row,
    buyer: JSON.stringify(row.buyer),
    split_rules: row.split_rules === null ? null : JSON.stringify(row.split_rules),
    metadata: row.metadata === null ? null : JSON.stringify(row.metadata),
  };
}

/** The INSERT of an intent, unexecuted: a fragment of a larger statement (db/one-statement.ts). */
export function insertIntentFragment(row: PaymentIntentRow): InsertFragment {
  const values = intentValues(row);
  return insertRowFragment('payment_intents', values);
}

export async function insertIntent(ex: Ex, row: PaymentIntentRow): Promise<PaymentIntentRow> {
  return ex.insertInto('payment_intents').values(intentValues(row)).returningAll().executeTakeFirstOrThrow();
}

/** Whether a statement failed because the company already has an intent created under this Idempotency-Key. */
export const isCreateKeyTaken = (err: unknown): boolean => isUniqueViolation(err, 'payment_intents_create_key');

export async function findIntent(ex: Ex, companyId: string, id: string, forUpdate = false): Promise<PaymentIntentRow | undefined> {
  let query = ex.selectFrom('payment_intents').selectAll().where('company_id', '=', companyId).where('id', '=', id);
  if (forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function findIntentByCreateKey(ex: Ex, companyId: string, key: string): Promise<PaymentIntentRow | undefined> {
  return ex.selectFrom('payment_intents').selectAll().where('company_id', '=', companyId).where('create_key', '=', key).executeTakeFirst();
}

export async function updateIntent(ex: Ex, id: string, changes: Updateable<PaymentIntentsTable>): Promise<PaymentIntentRow> {
  return ex.updateTable('payment_intents').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** The columns a confirmation's claim (phase 1) sets. */
const CLAIM_COLUMNS = ['confirm_started_at', 'confirm_key', 'reserved_transaction_id', 'updated_at'] as const;

/** An UPDATE of the intent's row (`id`) to the other values given: the run's own intent, claimed or locked by it. */
const setColumns = fragmentKind('own row', (qc, { id, ...changes }: Updateable<PaymentIntentsTable> & { id: string }) =>
  qc.updateTable('payment_intents').set(changes).where('id', '=', id),
);

/** An UPDATE of the intent's row to the values `row` holds in `columns`, unexecuted (db/one-statement.ts). */
function setColumnsFragment(row: PaymentIntentRow, columns: readonly (keyof PaymentIntentRow)[]): UpdateFragment {
  const changes = Object.fromEntries(columns.map((column) => [column, row[column]])) as Updateable<PaymentIntentsTable>;
  return setColumns({ ...changes, id: row.id });
}

/** The claim of a confirmation (phase 1) as the intent row holds it, unexecuted: run it with the row locked. */
export const claimFragment = (claimed: PaymentIntentRow): UpdateFragment => setColumnsFragment(claimed, CLAIM_COLUMNS);

/**
 * A confirm written in one statement while the caller holds the intent's row
 * locked (a provider in this database: claim.ts),
 * unexecuted: the claim's columns and the outcome at once, as the phased
 * path leaves them (`confirmed` is the row after both).
 */
export const confirmLockedFragment = (confirmed: PaymentIntentRow): UpdateFragment =>
  setColumnsFragment(confirmed, [...CLAIM_COLUMNS, 'status', 'transaction_id']);

/** A claimed intent made CONFIRMED by a caller holding its row locked, unexecuted: the outcome's columns alone (`confirmed` is the row after). */
export const confirmFragment = (confirmed: PaymentIntentRow): UpdateFragment => setColumnsFragment(confirmed, ['status', 'transaction_id', 'updated_at']);

/**
 * The claimed intent made CONFIRMED with its transaction, unexecuted, only
 * while it is still unconfirmed (no retry or worker recorded an outcome
 * first: what phase 3's FOR UPDATE read checks). It RETURNs the transaction
 * id, no row when the condition failed (a guard: record.ts).
 */
export const confirmClaimedFragment = (id: string, transactionId: string, at: Date): UpdateFragment => confirmClaimed({ id, transactionId, at });

/** confirmClaimedFragment's kind: a guard (db/one-statement.ts), the later parts of its statement write only when it matched. */
const confirmClaimed = fragmentKind('guard', (qc, v: { id: string; transactionId: string; at: Date }) =>
  qc
    .updateTable('payment_intents')
    .set({ status: 'CONFIRMED', transaction_id: v.transactionId, updated_at: v.at })
    .where('id', '=', v.id)
    .where('status', 'in', UNCONFIRMED_STATUSES)
    .returning('transaction_id'),
);

/** Undoes a confirmation claim that charged nothing (the vault refused the token). */
export async function releaseConfirmation(ex: Ex, id: string, at: Date): Promise<void> {
  await ex
    .updateTable('payment_intents')
    .set({ confirm_started_at: null, confirm_key: null, updated_at: at })
    .where('id', '=', id)
    .where('status', 'in', UNCONFIRMED_STATUSES)
    .execute();
}

/** Intents of a payment link whose confirmation is claimed and not yet recorded: each holds one of the link's slots. */
export async function countClaimedOfLink(ex: Ex, paymentLinkId: string): Promise<number> {
  const row = await ex
    .selectFrom('payment_intents')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('payment_link_id', '=', paymentLinkId)
    .where('status', 'in', UNCONFIRMED_STATUSES)
    .where('confirm_started_at', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Persists EXPIRED on unconfirmed intents past their lifetime (reads already show it); returns how many. */
export async function expireIntents(ex: Ex, now: Date): Promise<number> {
  const result = await ex
    .updateTable('payment_intents')
    .set({ status: 'EXPIRED', updated_at: now })
    .where('status', 'in', UNCONFIRMED_STATUSES)
    .where('confirm_started_at', 'is', null)
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Confirmations that called the acquirer and never recorded its answer (their process died). */
export async function claimStuckConfirmations(ex: Ex, startedBefore: Date, limit: number): Promise<PaymentIntentRow[]> {
  return ex
    .selectFrom('payment_intents')
    .selectAll()
    .where('status', 'in', UNCONFIRMED_STATUSES)
    .where('confirm_started_at', '<=', startedBefore)
    .orderBy('confirm_started_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/** When a FAILED card intent's outcome became unknown (undefined: known). */
export async function outcomeUnknownSince(ex: Ex, id: string): Promise<Date | undefined> {
  const row = await ex.selectFrom('payment_intents').select('outcome_unknown_since').where('id', '=', id).executeTakeFirst();
  return row?.outcome_unknown_since ?? undefined;
}

/** Settles an unknown outcome; a later marking (another late approval) since `since` is kept. The intent, when this settled it. */
export async function clearOutcomeUnknown(ex: Ex, id: string, since: Date): Promise<PaymentIntentRow | undefined> {
  return ex.updateTable('payment_intents').set({ outcome_unknown_since: null }).where('id', '=', id).where('outcome_unknown_since', '=', since).returningAll().executeTakeFirst();
}

/** Card intents recorded FAILED whose outcome is still to be resolved from the acquirer's record, oldest first. */
export async function listUnknownOutcomes(ex: Ex, limit: number): Promise<string[]> {
  const rows = await ex
    .selectFrom('payment_intents')
    .select('id')
    .where('outcome_unknown_since', 'is not', null)
    .orderBy('outcome_unknown_since')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** The next boleto "nosso número": a sequence, so concurrent confirmations never share one. */
export async function nextBoletoNumber(ex: Ex): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT nextval('boleto_number_seq')::int8 AS n`.execute(ex);
  return Number(rows[0]!.n);
}

/**
 * A card intent that will never take a card again (confirmed, failed, canceled), as literals: the condition
 * of the partial index payment_intents_vault_untold (migration 019), which a generic plan with parameters
 * in their place could not use.
 */
const CLOSED_CARD_INTENT = sql<boolean>`payment_method = 'CREDIT_CARD' AND status IN ('CONFIRMED', 'FAILED', 'CANCELED')`;

/** Up to `limit` card intents that are over and of which the vault has not acknowledged it, oldest first (vault-notices.ts). */
export async function untoldClosedCardIntents(ex: Ex, limit: number): Promise<Pick<PaymentIntentRow, 'id' | 'expires_at'>[]> {
  return ex
    .selectFrom('payment_intents')
    .select(['id', 'expires_at'])
    .where('vault_told_at', 'is', null)
    .where(CLOSED_CARD_INTENT)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
}

/** Notes that the vault acknowledged these intents are over. */
export async function markVaultTold(ex: Ex, ids: readonly string[], at: Date): Promise<void> {
  if (ids.length > 0) await ex.updateTable('payment_intents').set({ vault_told_at: at }).where('id', 'in', ids).where('vault_told_at', 'is', null).execute();
}
