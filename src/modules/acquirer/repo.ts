/** All SQL on acquirer_charges, the simulated acquirer's own ledger. The executor is always the first parameter. */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { ChargeRecord } from './acquirer.js';

type Ex = Kysely<Database>;

/** Records the outcome of a reference unless one is recorded already (the first outcome wins). */
export async function insertChargeOnce(ex: Ex, reference: string, method: string, amountCents: number, record: ChargeRecord, at: Date): Promise<void> {
  await ex
    .insertInto('acquirer_charges')
    .values({ reference, method, amount_cents: amountCents, outcome: JSON.stringify(record), created_at: at })
    .onConflict((oc) => oc.column('reference').doNothing())
    .execute();
}

export async function findCharge(ex: Ex, reference: string): Promise<ChargeRecord | undefined> {
  const row = await ex.selectFrom('acquirer_charges').select('outcome').where('reference', '=', reference).executeTakeFirst();
  return row ? (row.outcome as ChargeRecord) : undefined;
}
