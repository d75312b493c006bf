/**
 * The core side of a real connector: "persist, call, persist" written once.
 * The provider's key of a charge (derived by the connector from our ids) is
 * written to provider_charges before the call, the provider's own id kept
 * after it, and every later question (find, cancel, reconcile, refund) is
 * asked with the charge as recorded. A connector (capabilities.ts) never
 * touches the database; this class is what the rest of the service calls.
 */
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { CardCapability, ChargeCapability, ChargeLookup, Connector, KeyedPayment, KnownCharge, PendingCall } from './capabilities.js';
import type { CardAcquirer, CardAuthorization, ChargeMethod, ChargeRecord, ChargeRequest, PaymentProvider, PreparedCharge, ReceivedPayment, RefundRecord, RefundRequest } from './provider.js';
import { findChargeByProviderKey, findChargeRow, rememberChargeFragment, rememberNewCharge, setProviderId, type NewProviderCharge, type ProviderChargeRow } from './repo.js';

const known = (row: ProviderChargeRow): KnownCharge => ({ reference: row.reference, key: row.provider_key, providerId: row.provider_id });

export class ConnectedProvider implements PaymentProvider {
  readonly name: string;
  readonly registerNotifications?: () => Promise<string>;

  constructor(
    protected readonly connector: Connector,
    protected readonly db: Db,
    protected readonly clock: Clock,
  ) {
    this.name = connector.name;
    const subscribe = connector.notifications?.subscribe?.bind(connector.notifications);
    if (subscribe) this.registerNotifications = subscribe;
  }

  /** The connector itself, whose capabilities router.ts checks when the configuration is read. */
  connectorOf(): Connector {
    return this.connector;
  }

  /** The connector's capability for charges of `method`, if it has it. */
  charges(method: 'PIX' | 'BOLETO'): ChargeCapability | undefined {
    return method === 'PIX' ? this.connector.pix : this.connector.boleto;
  }

  async register(request: ChargeRequest): Promise<ChargeRecord> {
    const capability = this.capabilityFor(request.method);
    const key = capability.keyOf(request);
    const callWith = (k: string) => capability.registration(k, request);
    return this.persistAndCall(this.newCharge(request.method, key, request), callWith, capability.resendable ? undefined : (charge) => capability.find(charge));
  }

  /** register for a new reference, split: its row goes in the caller's statement, the call follows its commit. */
  prepare(request: ChargeRequest): PreparedCharge {
    const capability = this.capabilityFor(request.method);
    const key = capability.keyOf(request);
    const call = capability.registration(key, request);
    const charge = this.newCharge(request.method, key, request);
    return { insert: rememberChargeFragment(charge), send: () => this.callAndKeep(charge.reference, call) };
  }

  async findCharge(reference: string): Promise<ChargeRecord | undefined> {
    const row = await this.rowOf(reference);
    if (!row) return undefined;
    const charge = known(row);
    return row.method === 'CREDIT_CARD' ? this.connector.card?.find(charge) : this.charges(row.method as 'PIX' | 'BOLETO')?.find(charge);
  }

  async cancel(reference: string): Promise<void> {
    const row = await this.rowOf(reference);
    if (row && row.method !== 'CREDIT_CARD') await this.charges(row.method as 'PIX' | 'BOLETO')?.cancel(known(row));
  }

  async paymentsOf(reference: string): Promise<ReceivedPayment[]> {
    const row = await this.rowOf(reference);
    return row && this.connector.payments ? this.connector.payments.paymentsOf(known(row)) : [];
  }

  async paymentsBetween(from: Date, to: Date): Promise<ReceivedPayment[]> {
    const payments: ReceivedPayment[] = [];
    for (const payment of (await this.connector.payments?.paymentsBetween(from, to)) ?? []) {
      const received = await this.ours(payment);
      if (received) payments.push(received);
    }
    return payments;
  }

  notificationClaims(body: unknown): string[] | undefined {
    return this.connector.notifications?.claims(body);
  }

  async verifyPayment(paymentId: string): Promise<ReceivedPayment | undefined> {
    const payment = await this.connector.notifications?.verify(paymentId);
    return payment && this.ours(payment);
  }

  async refund(request: RefundRequest): Promise<RefundRecord> {
    if (!this.connector.refunds) throw new Error(`${this.name} takes no refunds`);
    return this.connector.refunds.refund(request, this.lookup(request.reference));
  }

  async findRefund(request: RefundRequest): Promise<RefundRecord | undefined> {
    return this.connector.refunds?.findRefund(request, this.lookup(request.reference));
  }

  check(): Promise<string> {
    return this.connector.health.check();
  }

  async close(): Promise<void> {
    await this.connector.close?.();
  }

  /**
   * Persist, call, persist. A reference recorded earlier (a retry) keeps its
   * first key; where resending is not safe the provider is asked first
   * (`findFirst`), so a call whose answer was lost is never made twice.
   */
  protected async persistAndCall(
    charge: NewProviderCharge,
    callWith: (key: string) => PendingCall,
    findFirst?: (charge: KnownCharge) => Promise<ChargeRecord | undefined>,
  ): Promise<ChargeRecord> {
    let call = callWith(charge.providerKey); // a request the provider would refuse fails here, before anything is recorded
    const fresh = await rememberNewCharge(this.db, charge);
    if (!fresh) {
      const row = (await findChargeRow(this.db, charge.reference))!;
      if (row.provider !== this.name) throw new Error(`${this.name}: reference ${charge.reference} is already registered with ${row.provider}`);
      if (findFirst) {
        const earlier = await findFirst(known(row));
        if (earlier) return earlier;
      }
      // The first row's key is the one every retry sends.
      if (row.provider_key !== charge.providerKey) call = callWith(row.provider_key);
    }
    return this.callAndKeep(charge.reference, call);
  }

  /** The call, then the provider's own id kept (one small write, only when it differs from our key). */
  private async callAndKeep(reference: string, call: PendingCall): Promise<ChargeRecord> {
    const answer = await call();
    if (answer.providerId) await setProviderId(this.db, reference, answer.providerId);
    return answer.record();
  }

  protected newCharge(method: ChargeMethod, key: string, request: { reference: string; amountCents: number; transactionId?: string }): NewProviderCharge {
    return { reference: request.reference, provider: this.name, method, providerKey: key, transactionId: request.transactionId, amountCents: request.amountCents, at: this.clock.now() };
  }

  protected async rowOf(reference: string): Promise<ProviderChargeRow | undefined> {
    const row = await findChargeRow(this.db, reference);
    return row?.provider === this.name ? row : undefined;
  }

  /** A payment the provider reports for a charge of ours; a card is decided when authorized, never by a payment report. */
  private async ours(payment: KeyedPayment): Promise<ReceivedPayment | undefined> {
    const row = await findChargeByProviderKey(this.db, this.name, payment.key);
    if (!row || row.method === 'CREDIT_CARD') return undefined;
    return { paymentId: payment.paymentId, reference: row.reference, amountCents: payment.amountCents, paidAt: payment.paidAt };
  }

  private lookup(reference: string): ChargeLookup {
    return async () => {
      const row = await this.rowOf(reference);
      return row && { ...known(row), method: row.method };
    };
  }

  private capabilityFor(method: string): ChargeCapability {
    const capability = method === 'PIX' || method === 'BOLETO' ? this.charges(method) : undefined;
    // router.ts refused this configuration at start; reaching here is a caller's bug, not a buyer's input.
    if (!capability) throw new Error(`${this.name} registers no ${method} charges`);
    return capability;
  }
}

/** A connector with card authorization: what the vault calls. */
export class ConnectedAcquirer extends ConnectedProvider implements CardAcquirer {
  constructor(
    connector: Connector,
    private readonly card: CardCapability,
    db: Db,
    clock: Clock,
  ) {
    super(connector, db, clock);
  }

  async authorizeCard(request: CardAuthorization): Promise<ChargeRecord> {
    const key = this.card.keyOf(request.reference);
    const callWith = (k: string) => this.card.authorization(k, request);
    const shown = { brand: request.card.brand, last4: request.card.last4 };
    const findFirst = async (charge: KnownCharge) => {
      const earlier = await this.card.find(charge);
      return earlier && { ...earlier, card: earlier.card ?? shown };
    };
    return this.persistAndCall(this.newCharge('CREDIT_CARD', key, request), callWith, findFirst);
  }

  async reverse(reference: string): Promise<ChargeRecord | undefined> {
    const row = await this.rowOf(reference);
    return row && this.card.reverse(known(row));
  }
}
