/**
 * Payments that arrive from the providers, by two paths that end in the same
 * once-only step (`apply`):
 *
 *  - notifications: a provider posts what it says was paid. The route stores
 *    the claimed payment ids and answers at once; the worker confirms each
 *    with the provider (`verifyPayment`: the amount and charge come from the
 *    provider, never from the notification's body) and applies it. A claim
 *    the provider does not confirm (forged, mistaken) changes nothing.
 *  - reconciliation: the worker asks the provider about unsettled charges
 *    (`paymentsOf`) and about recent payments (`paymentsBetween`), so a lost
 *    notification still ends in PAID; it also withdraws at the provider a
 *    charge we canceled (its payment window closed) so it can no longer be paid.
 *
 * `apply` records the payment under its id (Pix endToEndId, Cielo PaymentId)
 * and moves the transaction to PAID in one commit; a payment id seen before
 * does nothing, so repeated notifications and overlapping reconciliation
 * never pay twice.
 */
import type { Db } from '../../db/database.js';
import { DomainError, type Outcome } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import type { Clock } from '../../lib/clock.js';
import {
  claimChargesToCheck,
  markSettled,
  ProviderUnavailable,
  type PaymentProvider,
  type ProviderChargeRow,
  type Providers,
  type ReceivedPayment,
} from '../providers/index.js';
import type { TransactionService } from '../transactions/index.js';
import * as repo from './repo.js';

/** A claim the provider could not be asked about is retried on later rounds, then given up (reconciliation still finds a real payment). */
const MAX_VERIFY_ATTEMPTS = 20;
/** How far back reconciliation lists payments received (lost notifications). */
const RECENT_PAYMENTS_WINDOW_MS = 30 * 60_000;
/** A charge with no transaction this long after it was registered belongs to a confirmation that failed: withdraw it. */
const ORPHAN_CHARGE_AGE_MS = 10 * 60_000;

export interface IncomingPaymentsDeps {
  db: Db;
  clock: Clock;
  providers: Providers;
  transactions: TransactionService;
  /** How often one unsettled charge is asked about, and recent payments listed (RECONCILE_INTERVAL_SECONDS). */
  reconcileIntervalMs: number;
  /** Where payments that need a person (paid after cancel, wrong amount) are reported. */
  warn?: (details: Record<string, unknown>, message: string) => void;
}

/** What applying one payment did. */
export type ApplyOutcome = 'applied' | 'duplicate' | 'amount_mismatch' | 'already_paid' | 'not_pending' | 'no_transaction';

export class IncomingPayments {
  private lastRecentScan = new Map<string, number>();
  /** The real connectors in use (the simulated one sends nothing and has nothing to reconcile). */
  private readonly connectors: PaymentProvider[];

  constructor(private readonly deps: IncomingPaymentsDeps) {
    this.connectors = [...new Set(Object.values(deps.providers))].filter((p) => p.name !== 'simulated');
  }

  /** The configured connector of this name, if any: its notification route exists only then. */
  connector(name: string): PaymentProvider | undefined {
    return this.connectors.find((p) => p.name === name);
  }

  /** A provider's notification: its claims are stored for the worker; nothing in it is trusted. */
  async receive(provider: PaymentProvider, body: unknown): Promise<Outcome<{ received: number }>> {
    const claims = provider.notificationClaims(body);
    if (!claims) return new DomainError('VALIDATION_ERROR', ERRORS.VALIDATION_ERROR.notANotification({ provider: provider.name }), [{ field: 'body', message: PROBLEMS.notANotification({ provider: provider.name }) }]);
    await repo.insertNotifications(this.deps.db, provider.name, claims, this.deps.clock.now());
    return { received: claims.length };
  }

  /** Worker: verifies stored claims with their providers and applies the confirmed ones; answers how many were settled. */
  async processNotifications(limit = 50): Promise<number> {
    // Only a configured connector has a notification route: without one there is nothing to take.
    if (this.connectors.length === 0) return 0;
    const rows = await repo.takeNotifications(this.deps.db, limit, MAX_VERIFY_ATTEMPTS);
    let settled = 0;
    for (const row of rows) {
      const provider = this.connector(row.provider);
      if (!provider) continue; // its connector was switched off: tried again on later rounds, within its attempts
      let payment: ReceivedPayment | undefined;
      try {
        payment = await provider.verifyPayment(row.payment_id);
      } catch (err) {
        if (err instanceof ProviderUnavailable) continue; // asked again next round
        throw err;
      }
      const outcome = payment ? await this.apply(provider.name, payment) : 'unconfirmed';
      if (!payment) this.deps.warn?.({ provider: provider.name, paymentId: row.payment_id }, 'a notification claimed a payment the provider does not confirm');
      await repo.markProcessed(this.deps.db, row.id, outcome, this.deps.clock.now());
      settled++;
    }
    return settled;
  }

  /** Worker: asks each real provider about its unsettled charges and recent payments; answers how many payments were applied. */
  async reconcile(limit = 50): Promise<number> {
    let applied = 0;
    for (const provider of this.connectors) {
      try {
        applied += await this.reconcileCharges(provider, limit);
        applied += await this.reconcileRecent(provider);
      } catch (err) {
        if (!(err instanceof ProviderUnavailable)) throw err;
      }
    }
    return applied;
  }

  private async reconcileCharges(provider: PaymentProvider, limit: number): Promise<number> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const checkedBefore = new Date(now.getTime() - this.deps.reconcileIntervalMs);
    const charges = await db.transaction().execute((trx) => claimChargesToCheck(trx, provider.name, checkedBefore, now, limit));
    let applied = 0;
    for (const charge of charges) applied += await this.reconcileCharge(provider, charge, now);
    return applied;
  }

  /** One unsettled charge, by the state of its transaction. */
  private async reconcileCharge(provider: PaymentProvider, charge: ProviderChargeRow, now: Date): Promise<number> {
    const status = await this.deps.transactions.statusOfIntent(charge.reference);
    if (status === 'PAID' || status === 'FAILED') {
      await markSettled(this.deps.db, charge.reference, now);
      return 0;
    }
    if (status === undefined && now.getTime() - charge.created_at.getTime() < ORPHAN_CHARGE_AGE_MS) return 0;
    if (status === 'CANCELED' || status === undefined) {
      // Withdrawn first, so no payment can start after we look.
      await provider.cancel(charge.reference).catch((err: unknown) => {
        if (err instanceof ProviderUnavailable) throw err;
        // Refused (e.g. it was paid meanwhile): what was paid is read below.
      });
    }
    const applied = await this.applyAll(provider.name, await provider.paymentsOf(charge.reference));
    if (status !== 'PENDING') await markSettled(this.deps.db, charge.reference, now);
    return applied;
  }

  /** Payments received recently, once per interval: catches a payment whose notification was lost. */
  private async reconcileRecent(provider: PaymentProvider): Promise<number> {
    const now = this.deps.clock.now().getTime();
    if (now - (this.lastRecentScan.get(provider.name) ?? 0) < this.deps.reconcileIntervalMs) return 0;
    this.lastRecentScan.set(provider.name, now);
    return this.applyAll(provider.name, await provider.paymentsBetween(new Date(now - RECENT_PAYMENTS_WINDOW_MS), new Date(now)));
  }

  /** Applies each payment in turn; answers how many paid their transaction. */
  private async applyAll(provider: string, payments: ReceivedPayment[]): Promise<number> {
    let applied = 0;
    for (const payment of payments) if ((await this.apply(provider, payment)) === 'applied') applied++;
    return applied;
  }

  /** Records a confirmed payment once and pays its transaction, in one commit. */
  async apply(provider: string, payment: ReceivedPayment): Promise<ApplyOutcome> {
    const { db, clock, transactions } = this.deps;
    const now = clock.now();
    const result = await db.transaction().execute(async (trx): Promise<{ outcome: ApplyOutcome }> => {
      const fresh = await repo.insertReceivedPayment(trx, { provider, ...payment, at: now });
      if (!fresh) return { outcome: 'duplicate' };
      const paid = await transactions.payFromProvider(trx, payment.reference, payment.amountCents, now);
      await repo.setReceivedOutcome(trx, provider, payment.paymentId, paid.outcome, paid.transactionId);
      if (paid.outcome === 'applied') await markSettled(trx, payment.reference, now);
      return paid;
    });
    if (result.outcome !== 'applied' && result.outcome !== 'duplicate') {
      this.deps.warn?.({ provider, paymentId: payment.paymentId, reference: payment.reference, outcome: result.outcome }, 'a received payment did not pay its transaction');
    }
    return result.outcome;
  }
}
