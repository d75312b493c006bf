/**
 * The sandbox provider. It answers at once and keeps its record in its own
 * table, like a real acquirer's ledger, keyed by our reference: asked twice
 * for the same reference it answers the first outcome and charges nothing
 * more. An amount of 50200 centavos (Pix, boleto) or a card ending in 0119
 * makes it silent (PROVIDER_ERROR); cards ending in 0002 and 0069 are refused.
 * A reversal (desfazimento) is recorded on the same row (`reversed_at`).
 */
import type { Db } from '../../../db/database.js';
import type { InsertFragment } from '../../../db/one-statement.js';
import type { Clock } from '../../../lib/clock.js';
import {
  ProviderUnavailable,
  type CardAuthorization,
  type ChargeRecord,
  type ChargeRequest,
  type CardAcquirer,
  type ReceivedPayment,
  type RefundRecord,
  type RefundRequest,
} from '../provider.js';
import * as repo from './repo.js';
import { sandboxAuthorizationOfLast4 } from './sandbox-cards.js';

const SILENT_AMOUNT_CENTS = 50_200;

export class SimulatedProvider implements CardAcquirer {
  readonly name: string = 'simulated';

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async register(request: ChargeRequest): Promise<ChargeRecord> {
    const { record } = this.registration(request);
    return this.record({ reference: request.reference, method: request.method, amountCents: request.amountCents, record, at: this.clock.now() });
  }

  /** Its ledger is in this database: the record is written by the caller's statement. */
  registration(request: ChargeRequest): { record: ChargeRecord; insert: InsertFragment } {
    if (request.amountCents === SILENT_AMOUNT_CENTS) {
      throw new ProviderUnavailable('The simulated provider is silent for an amount of 50200');
    }
    const charge = { reference: request.reference, method: request.method, amountCents: request.amountCents, at: this.clock.now() };
    const record: ChargeRecord = { reference: request.reference, providerId: `sim_${request.reference}`, approved: true };
    return { record, insert: repo.insertChargeOnceFragment({ ...charge, record }) };
  }

  async authorizeCard(request: CardAuthorization): Promise<ChargeRecord> {
    const outcome = sandboxAuthorizationOfLast4(request.card.last4);
    if (outcome.outcome === 'silent') throw new ProviderUnavailable('The simulated acquirer is silent for cards ending in 0119');
    const card = { brand: request.card.brand, last4: request.card.last4 };
    const record: ChargeRecord = outcome.outcome === 'approved'
      ? { reference: request.reference, providerId: `sim_${request.reference}`, approved: true, card }
      : { reference: request.reference, providerId: `sim_${request.reference}`, approved: false, refusalCode: outcome.refusalCode, refusalMessage: outcome.refusalMessage, card };
    return this.record({ reference: request.reference, method: 'CREDIT_CARD', amountCents: request.amountCents, record, at: this.clock.now() });
  }

  /** Keeps the first outcome per reference: a repeated call returns it instead of charging again (one statement when it is new). */
  private async record(charge: repo.NewCharge): Promise<ChargeRecord> {
    if (await repo.insertChargeOnce(this.db, charge)) return charge.record;
    return (await repo.findCharge(this.db, charge.reference)) ?? charge.record;
  }

  async findCharge(reference: string): Promise<ChargeRecord | undefined> {
    return repo.findCharge(this.db, reference);
  }

  /** Only an approval is reversed; a refusal moved no money, and an unknown reference has nothing to undo. */
  async reverse(reference: string): Promise<ChargeRecord | undefined> {
    const record = await this.findCharge(reference);
    if (!record?.approved || record.reversedAt) return record;
    await repo.markReversed(this.db, reference, this.clock.now());
    return this.findCharge(reference);
  }

  /** Sandbox charges are paid or failed through the sandbox routes, not withdrawn at a provider. */
  async cancel(_reference: string): Promise<void> {}

  /** Sandbox payments arrive through POST /v2/sandbox/transactions/{id}/pay, never by reconciliation. */
  async paymentsOf(_reference: string): Promise<ReceivedPayment[]> {
    return [];
  }

  async paymentsBetween(_from: Date, _to: Date): Promise<ReceivedPayment[]> {
    return [];
  }

  /** The sandbox sends no notifications. */
  notificationClaims(_body: unknown): string[] | undefined {
    return undefined;
  }

  async verifyPayment(_paymentId: string): Promise<ReceivedPayment | undefined> {
    return undefined;
  }

  /** A sandbox refund succeeds at once; the refund id is the key, so a retry answers the same. */
  async refund(request: RefundRequest): Promise<RefundRecord> {
    return { refundId: request.refundId, status: 'SUCCEEDED', providerId: `sim_${request.refundId}` };
  }

  async findRefund(request: RefundRequest): Promise<RefundRecord> {
    return this.refund(request);
  }

  async check(): Promise<string> {
    return 'simulated: answers in-process, moves no money';
  }
}
