/**
 * The sale's second stage: the charge, outside any database transaction (no
 * network call may sit inside one), keyed by the intent id so that a retry
 * or the recovery worker asking again gets the acquirer's record, never a
 * second charge. A card goes through the vault (the only place a card is
 * readable), Pix and boleto straight to their provider.
 *
 * A provider whose record is in this database (the sandbox) is not called:
 * its registration is the record and the INSERT that our own statement
 * writes (registrationOf). A provider that is called between two commits
 * (`prepare`) has its record written by the claim and is called by `send`.
 */
import type { Clock } from '../../lib/clock.js';
import type { PaymentIntentRow } from '../../db/types.js';
import {
  methodUnavailable,
  ProviderUnavailable,
  type ChargeBuyer,
  type ChargeRecord,
  type ChargeRequest,
  type PaymentProvider,
  type PreparedCharge,
  type Providers,
} from '../providers/index.js';
import type { VaultAuthorization, VaultClient } from '../vault/index.js';
import { transactionIdOf } from './sale.js';

/** How long the vault may take to START a card authorization; the API waits a few seconds more for the answer (vault/client.ts). */
export const AUTHORIZE_DEADLINE_MS = 10_000;

/** A provider called between two commits whose first one writes its record (see PaymentProvider.prepare). */
export type PreparingProvider = PaymentProvider & Required<Pick<PaymentProvider, 'prepare'>>;

/** A provider whose record is written by our own statement (see PaymentProvider.registration). */
export type InDatabaseProvider = PaymentProvider & Required<Pick<PaymentProvider, 'registration'>>;

export interface ChargeDeps {
  clock: Clock;
  /** The connector of each method (absent: switched off). */
  providers: Providers;
  /** Card authorizations go to the vault. */
  vault: VaultClient;
}

/**
 * The charge of a claimed intent: a card authorized by the vault (with its
 * deadline), a Pix charge or boleto registered with its provider. A method
 * switched off after the claim is refused before any charge.
 */
export async function charge(deps: ChargeDeps, intent: PaymentIntentRow, token: string | undefined): Promise<VaultAuthorization> {
  if (intent.payment_method === 'CREDIT_CARD') {
    return deps.vault.authorize({
      token: token ?? '',
      intentId: intent.id,
      companyId: intent.company_id,
      amountCents: intent.amount_cents,
      installments: intent.installments,
      deadline: deps.clock.now().getTime() + AUTHORIZE_DEADLINE_MS,
    });
  }
  const method = intent.payment_method as 'PIX' | 'BOLETO';
  const provider = deps.providers[method];
  if (!provider) return { kind: 'refused', error: methodUnavailable(method) };
  return answered(() => provider.register({ ...chargeRequestOf(intent), method }));
}

/** The call of a prepared charge (its record written by the claim): the provider's record, or `unavailable` when it was silent. */
export function send(prepared: PreparedCharge): Promise<Extract<VaultAuthorization, { kind: 'charged' | 'unavailable' }>> {
  return answered(() => prepared.send());
}

async function answered(call: () => Promise<ChargeRecord>): Promise<Extract<VaultAuthorization, { kind: 'charged' | 'unavailable' }>> {
  try {
    return { kind: 'charged', record: await call() };
  } catch (err) {
    if (err instanceof ProviderUnavailable) return { kind: 'unavailable', reason: err.message };
    throw err;
  }
}

/** The in-database provider's record of the intent's charge and its INSERT; undefined when the provider is unavailable. */
export function registrationOf(provider: InDatabaseProvider, intent: PaymentIntentRow): ReturnType<InDatabaseProvider['registration']> | undefined {
  try {
    return provider.registration({ ...chargeRequestOf(intent), method: intent.payment_method as 'PIX' | 'BOLETO' });
  } catch (err) {
    if (err instanceof ProviderUnavailable) return undefined;
    throw err;
  }
}

/** A called provider's charge prepared: its record's INSERT for the claim's statement, and the call. */
export function prepare(provider: PreparingProvider, intent: PaymentIntentRow): PreparedCharge {
  return provider.prepare({ ...chargeRequestOf(intent), method: intent.payment_method as 'PIX' | 'BOLETO' });
}

/** What the provider is asked to register for an intent (Pix or boleto). */
export function chargeRequestOf(intent: PaymentIntentRow): Omit<ChargeRequest, 'method'> {
  return {
    reference: intent.id,
    transactionId: transactionIdOf(intent),
    amountCents: intent.amount_cents,
    buyer: intent.buyer as ChargeBuyer,
    ...(intent.description ? { description: intent.description } : {}),
    ...(intent.pix_expires_in_seconds ? { expiresInSeconds: intent.pix_expires_in_seconds } : {}),
    ...(intent.boleto_due_date ? { dueDate: intent.boleto_due_date } : {}),
  };
}
