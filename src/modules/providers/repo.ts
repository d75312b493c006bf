/**
 * All SQL on provider_charges: what a real connector registered under our
 * reference. A connector writes the row before it calls the provider
 * (persist, call, persist), so a process dying mid-call leaves the key the
 * provider knows the charge by. The executor is always the first parameter.
 */
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import { builderOf, fragmentKind, type InsertFragment } from '../../db/one-statement.js';
import type { Database, ProviderChargesTable } from '../../db/types.js';

type Ex = Kysely<Database>;
export type ProviderChargeRow = Selectable<ProviderChargesTable>;

export interface NewProviderCharge {
  reference: string;
  provider: string;
  method: string;
  providerKey: string;
  transactionId?: string;
  amountCents: number;
  at: Date;
}

/**
 * The INSERT of the key of a charge about to be sent, unexecuted (db/one-statement.ts); a retry of the same reference keeps the first row.
 * It counts as the charge's first check: reconciliation first asks about it one interval after it was sent, not
 * right away, when no buyer can have paid it yet (at every sale, that was a GET /cob and three queries more).
 */
export function rememberChargeFragment(charge: NewProviderCharge): InsertFragment {
  return rememberCharge({
    reference: charge.reference,
    provider: charge.provider,
    method: charge.method,
    provider_key: charge.providerKey,
    transaction_id: charge.transactionId ?? null,
    amount_cents: charge.amountCents,
    created_at: charge.at,
    checked_at: charge.at,
  });
}

const rememberCharge = fragmentKind('rows', (qc, values: Insertable<ProviderChargesTable>) =>
  qc.insertInto('provider_charges').values(values).onConflict((oc) => oc.column('reference').doNothing()),
);

/** rememberChargeFragment, executed: true when the row is new, false when the reference was recorded earlier (its first row kept). */
export async function rememberNewCharge(ex: Ex, charge: NewProviderCharge): Promise<boolean> {
  const inserted = await builderOf(rememberChargeFragment(charge))(ex).returning('reference').executeTakeFirst();
  return inserted !== undefined;
}

/** Records the provider's own id once it answered (Cielo's PaymentId). */
export async function setProviderId(ex: Ex, reference: string, providerId: string): Promise<void> {
  await ex.updateTable('provider_charges').set({ provider_id: providerId }).where('reference', '=', reference).execute();
}

export async function findChargeRow(ex: Ex, reference: string): Promise<ProviderChargeRow | undefined> {
  return ex.selectFrom('provider_charges').selectAll().where('reference', '=', reference).executeTakeFirst();
}

/** The charge a provider knows by `keyOrId` (our key, or its own id). */
export async function findChargeByProviderKey(ex: Ex, provider: string, keyOrId: string): Promise<ProviderChargeRow | undefined> {
  return ex
    .selectFrom('provider_charges')
    .selectAll()
    .where('provider', '=', provider)
    .where((eb) => eb.or([eb('provider_key', '=', keyOrId), eb('provider_id', '=', keyOrId)]))
    .executeTakeFirst();
}

/**
 * Unsettled Pix charges and boletos of a provider, least recently checked
 * first, marked checked now (reconciliation; a card is decided at once). Run
 * it in a transaction (`trx`), so the rows stay locked until marked. A charge
 * is written checked when it is sent (rememberChargeFragment); one never
 * checked (written before that) comes first.
 */
export async function claimChargesToCheck(trx: Transaction<Database>, provider: string, checkedBefore: Date, now: Date, limit: number): Promise<ProviderChargeRow[]> {
  const rows = await trx
    .selectFrom('provider_charges')
    .selectAll()
    .where('provider', '=', provider)
    .where('settled_at', 'is', null)
    .where('method', '<>', 'CREDIT_CARD')
    .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', checkedBefore)]))
    .orderBy('checked_at', (ob) => ob.asc().nullsFirst())
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  if (rows.length > 0) {
    await trx.updateTable('provider_charges').set({ checked_at: now }).where('reference', 'in', rows.map((r) => r.reference)).execute();
  }
  return rows;
}

/** A charge that is paid, canceled or failed needs no more reconciliation. */
export async function markSettled(ex: Ex, reference: string, at: Date): Promise<void> {
  await ex.updateTable('provider_charges').set({ settled_at: at }).where('reference', '=', reference).where('settled_at', 'is', null).execute();
}
