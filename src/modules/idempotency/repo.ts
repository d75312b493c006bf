/** All SQL on idempotency_keys. The executor is always the first parameter. */
import { sql, type QueryCreator, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { builderOf, fragmentKind, isUniqueViolation, insertRowFragment, type InsertFragment, type Place, type UpdateFragment } from '../../db/one-statement.js';
import type { Database, IdempotencyKeysTable } from '../../db/types.js';

export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;

type NewStarted = { companyId: string; key: string; fingerprint: string; successStatus: number; lease: Date; now: Date };

/**
 * A new key claimed STARTED with its lease, unexecuted: a fragment of the
 * statement that also claims the request's work (db/one-statement.ts). When
 * the key exists it fails with a unique violation (isKeyTaken).
 */
export function insertStartedFragment(row: NewStarted): InsertFragment {
  const values = {
    company_id: row.companyId,
    key: row.key,
    fingerprint: row.fingerprint,
    state: 'STARTED' as const,
    success_status: row.successStatus,
    locked_until: row.lease,
    created_at: row.now,
  };
  return insertRowFragment('idempotency_keys', values);
}

/** Claims a new key; false when (company, key) already exists. */
export async function insertStarted(ex: Db, row: NewStarted): Promise<boolean> {
  const inserted = await builderOf(insertStartedFragment(row))(ex)
    .onConflict((oc) => oc.columns(['company_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * A new key inserted DONE with its response, unexecuted: a fragment of the
 * statement that does the request's work (db/one-statement.ts). When the key
 * exists it fails with a unique violation (isKeyTaken), aborting the statement.
 */
export function insertDoneFragment(row: { companyId: string; key: string; fingerprint: string; successStatus: number; status: number; sealedBody: string; now: Date }): InsertFragment {
  const values = {
    company_id: row.companyId,
    key: row.key,
    fingerprint: row.fingerprint,
    state: 'DONE' as const,
    success_status: row.successStatus,
    response_status: row.status,
    response_body: row.sealedBody,
    // A DONE row is never taken over: its lease is simply over.
    locked_until: row.now,
    created_at: row.now,
  };
  return insertRowFragment('idempotency_keys', values);
}

/** Whether a statement failed because its key's row exists already (insertDoneFragment). */
export const isKeyTaken = (err: unknown): boolean => isUniqueViolation(err, 'idempotency_keys_pkey');

export async function findKey(ex: Db, companyId: string, key: string): Promise<IdempotencyKeyRow | undefined> {
  return ex.selectFrom('idempotency_keys').selectAll().where('company_id', '=', companyId).where('key', '=', key).executeTakeFirst();
}

/** Deletes one generation of a key (the row created at `createdAt`), so a newer claim is never removed. */
export async function deleteGeneration(ex: Db, companyId: string, key: string, createdAt: Date): Promise<void> {
  await ex.deleteFrom('idempotency_keys').where('company_id', '=', companyId).where('key', '=', key).where('created_at', '=', createdAt).execute();
}

/** Takes over a STARTED key whose lease ran out: a compare-and-set on the old lease. */
export async function takeOver(ex: Db, companyId: string, key: string, oldLease: Date, lease: Date): Promise<boolean> {
  const taken = await ex
    .updateTable('idempotency_keys')
    .set({ locked_until: lease })
    .where('company_id', '=', companyId)
    .where('key', '=', key)
    .where('state', '=', 'STARTED')
    .where('locked_until', '=', oldLease)
    .returning('key')
    .executeTakeFirst();
  return taken !== undefined;
}

/**
 * Stores the response of a STARTED key: `status`, or the key's recorded
 * success status when `status` is undefined. Answers the stored status, or
 * undefined when the key is no longer STARTED.
 */
export async function markDone(ex: Db, companyId: string, key: string, status: number | undefined, sealedBody: string): Promise<number | undefined> {
  const updated = await markDoneUpdate(ex, { companyId, key, status, sealedBody }).returning('response_status').executeTakeFirst();
  return updated?.response_status ?? undefined;
}

/** markDone's UPDATE, unexecuted: a fragment of the statement that records the request's outcome (db/one-statement.ts). */
export const markDoneFragment = (companyId: string, key: string, status: number | undefined, sealedBody: string): UpdateFragment =>
  markDoneKind({ companyId, key, status, sealedBody });

type MarkDone = {
  companyId: string;
  key: string;
  status: number | undefined;
  sealedBody: string;
};

function markDoneUpdate(qc: QueryCreator<Database>, { companyId, key, status, sealedBody }: MarkDone, at?: Place) {
  return (
    qc
      .updateTable('idempotency_keys')
      // Without a status, the response's is the key's success status: a column, not a parameter.
      .set((eb) => ({ state: 'DONE', response_status: status ?? eb.ref('success_status'), response_body: sealedBody }))
      .where('company_id', '=', companyId)
      .where('key', '=', key)
      .where('state', '=', 'STARTED')
      .$if(at?.guarded === true, (qb) => qb.where(sql<boolean>`exists (select 1 from ${sql.table(at!.first)})`))
  );
}

/** The request's own key: no other run of a batch holds it. */
const markDoneKind = fragmentKind('own row', markDoneUpdate, { readsGuard: true });

/** Releases a STARTED key whose request failed without storing a response. */
export async function deleteStarted(ex: Db, companyId: string, key: string): Promise<void> {
  await ex.deleteFrom('idempotency_keys').where('company_id', '=', companyId).where('key', '=', key).where('state', '=', 'STARTED').execute();
}

/** Releases a STARTED key only while it still holds `lease` (a key taken over since has another). */
export async function deleteStartedUnder(ex: Db, companyId: string, key: string, lease: Date): Promise<void> {
  await ex
    .deleteFrom('idempotency_keys')
    .where('company_id', '=', companyId)
    .where('key', '=', key)
    .where('state', '=', 'STARTED')
    .where('locked_until', '=', lease)
    .execute();
}

export async function deleteOlderThan(ex: Db, cutoff: Date): Promise<number> {
  const result = await ex.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
