/**
 * All SQL on provider_notifications (what providers claimed, waiting to be
 * verified) and received_payments (what providers confirmed, once per
 * payment id). The executor is always the first parameter.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Database, ProviderNotificationsTable } from '../../db/types.js';

type Ex = Kysely<Database>;
export type NotificationRow = Selectable<ProviderNotificationsTable>;

/** Stores the payment ids a notification claimed; verified later by the worker. */
export async function insertNotifications(ex: Ex, provider: string, paymentIds: string[], at: Date): Promise<void> {
  if (paymentIds.length === 0) return;
  await ex
    .insertInto('provider_notifications')
    .values(paymentIds.map((paymentId) => ({ provider, payment_id: paymentId, received_at: at })))
    .execute();
}

/**
 * Unprocessed claims, oldest first, each counted as one more attempt in the
 * same statement, so a claim the provider keeps failing to confirm is given
 * up after `maxAttempts`. Two workers may take the same claim: applying a
 * payment is once-only (received_payments' key), so that costs one query.
 */
export async function takeNotifications(ex: Ex, limit: number, maxAttempts: number): Promise<NotificationRow[]> {
  return ex
    .updateTable('provider_notifications')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', (eb) =>
      eb.selectFrom('provider_notifications').select('id').where('processed_at', 'is', null).where('attempts', '<', maxAttempts).orderBy('id').limit(limit),
    )
    .returningAll()
    .execute();
}

export async function markProcessed(ex: Ex, id: number, outcome: string, at: Date): Promise<void> {
  await ex.updateTable('provider_notifications').set({ processed_at: at, outcome }).where('id', '=', id).execute();
}

export interface NewReceivedPayment {
  provider: string;
  paymentId: string;
  reference: string;
  amountCents: number;
  paidAt: Date;
  at: Date;
}

/** Records a payment once; false when its id was recorded before (a repeated notification). */
export async function insertReceivedPayment(ex: Ex, p: NewReceivedPayment): Promise<boolean> {
  const inserted = await ex
    .insertInto('received_payments')
    .values({
      provider: p.provider,
      payment_id: p.paymentId,
      reference: p.reference,
      amount_cents: p.amountCents,
      paid_at: p.paidAt,
      recorded_at: p.at,
      outcome: 'recorded',
    })
    .onConflict((oc) => oc.columns(['provider', 'payment_id']).doNothing())
    .returning('payment_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function setReceivedOutcome(ex: Ex, provider: string, paymentId: string, outcome: string, transactionId: string | undefined): Promise<void> {
  await ex
    .updateTable('received_payments')
    .set({ outcome, transaction_id: transactionId ?? null })
    .where('provider', '=', provider)
    .where('payment_id', '=', paymentId)
    .execute();
}

/** The payment that paid a transaction (a Pix devolução names it by its endToEndId). */
export async function appliedPaymentOf(ex: Ex, transactionId: string): Promise<string | undefined> {
  const row = await ex
    .selectFrom('received_payments')
    .select('payment_id')
    .where('transaction_id', '=', transactionId)
    .where('outcome', '=', 'applied')
    .executeTakeFirst();
  return row?.payment_id;
}
