/** All SQL on acquirer_charges, the simulated acquirer's own ledger. The executor is always the first parameter. */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types.js';
import type { ChargeRecord } from '../provider.js';

type Ex = Kysely<Database>;

/** Records the outcome of a reference unless one is recorded already (the first outcome wins); true when this call recorded it. */
export async function insertChargeOnce(ex: Ex, reference: string, method: string, amountCents: number, record: ChargeRecord, at: Date): Promise<boolean> {
  const inserted = await ex
    .insertInto('acquirer_charges')
    .values({ reference, method, amount_cents: amountCents, outcome: JSON.stringify(record), created_at: at })
    .onConflict((oc) => oc.column('reference').doNothing())
    .returning('reference')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findCharge(ex: Ex, reference: string): Promise<ChargeRecord | undefined> {
  const row = await ex.selectFrom('acquirer_charges').select(['outcome', 'reversed_at']).where('reference', '=', reference).executeTakeFirst();
  if (!row) return undefined;
  const record = row.outcome as ChargeRecord;
  return row.reversed_at ? { ...record, reversedAt: row.reversed_at.toISOString() } : record;
}

/** Records the reversal of an approval; the first reversal's time is kept. */
export async function markReversed(ex: Ex, reference: string, at: Date): Promise<void> {
  await ex.updateTable('acquirer_charges').set({ reversed_at: at }).where('reference', '=', reference).where('reversed_at', 'is', null).execute();
}
