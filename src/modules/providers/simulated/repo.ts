/** All SQL on acquirer_charges, the simulated acquirer's own ledger. The executor is always the first parameter. */
import type { Kysely, QueryCreator } from 'kysely';
import { fragmentKind, type InsertFragment } from '../../../db/one-statement.js';
import type { Database } from '../../../db/types.js';
import type { ChargeRecord } from '../provider.js';

type Ex = Kysely<Database>;

export interface NewCharge {
  reference: string;
  method: string;
  amountCents: number;
  record: ChargeRecord;
  at: Date;
}

const chargeValues = (c: NewCharge) => ({ reference: c.reference, method: c.method, amount_cents: c.amountCents, outcome: JSON.stringify(c.record), created_at: c.at });

/** The INSERT of an outcome unless one is recorded already for the reference (the first outcome wins), unexecuted. */
function chargeOnce(qc: QueryCreator<Database>, values: ReturnType<typeof chargeValues>) {
  return qc
    .insertInto('acquirer_charges')
    .values(values)
    .onConflict((oc) => oc.column('reference').doNothing());
}

const chargeOnceKind = fragmentKind('rows', chargeOnce);

/** chargeOnce as a fragment of a larger statement (db/one-statement.ts). */
export const insertChargeOnceFragment = (c: NewCharge): InsertFragment => chargeOnceKind(chargeValues(c));

/** chargeOnce, executed: true when this call recorded the outcome. */
export async function insertChargeOnce(ex: Ex, c: NewCharge): Promise<boolean> {
  return (await chargeOnce(ex, chargeValues(c)).returning('reference').executeTakeFirst()) !== undefined;
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
