/**
 * What a connector offers, one capability per flow (as Hyperswitch has a
 * trait per flow): Pix charges, boletos, card authorization, refunds,
 * incoming notifications, payments listing and a health check. A connector
 * implements the capabilities its provider has and leaves the others
 * undefined; router.ts refuses, when the configuration is read, a method
 * served by a connector that lacks its capability (CapabilityNotSupported).
 *
 * A connector only speaks to its provider: it builds requests, parses answers
 * and maps statuses. It never touches the database: the core
 * (connected-provider.ts) derives nothing itself but asks the connector for
 * the provider's key of a charge (derived from our ids), writes it to
 * provider_charges before the call, makes the call, and keeps the provider's
 * own id after it (persist, call, persist); and it hands the connector the
 * charge as recorded (`KnownCharge`) for every later question.
 */
import { ConfigError } from '../../config.js';
import type { Clock } from '../../lib/clock.js';
import type { CardAuthorization, ChargeRecord, ChargeRequest, ReceivedPayment, RefundRecord, RefundRequest } from './provider.js';

/** What every connector is built with: no database. */
export interface ConnectorDeps {
  clock: Clock;
  /** Extra trusted CA certificates (PEM) for the provider's server certificate; tests pass their own CA. */
  extraCa?: string;
}

/** A charge as provider_charges records it: our reference, the key we gave the provider, its own id once known. */
export interface KnownCharge {
  reference: string;
  key: string;
  providerId?: string | null;
}

/**
 * The provider's answer to a new charge or authorization. `providerId` (the
 * provider's own id for it, when it differs from our key) is kept before
 * `record()` is read, so an answer that is no outcome yet (record() throws
 * ProviderUnavailable) is still found by that id afterwards.
 */
export interface ProviderAnswer {
  providerId?: string;
  record(): ChargeRecord;
}

/** A call built and checked (a request the provider would refuse fails here, before anything is recorded), not yet sent. */
export type PendingCall = () => Promise<ProviderAnswer>;

/** Pix charges or boletos: register under our key, find, cancel. */
export interface ChargeCapability {
  /** The provider's key for this charge, derived from our ids (the Pix txid, Cielo's MerchantOrderId). */
  keyOf(request: ChargeRequest): string;
  /** The registration, built and checked; throws (a RangeError, an Error) for a request this provider does not take. */
  registration(key: string, request: ChargeRequest): PendingCall;
  /**
   * Whether sending the same key again is safe (the PSP answers the charge it
   * has): a retry then registers again; otherwise the core asks `find` first.
   */
  readonly resendable: boolean;
  find(charge: KnownCharge): Promise<ChargeRecord | undefined>;
  /** Withdraws an unpaid charge; idempotent; nothing to do where the provider cannot withdraw. */
  cancel(charge: KnownCharge): Promise<void>;
}

/** Card authorization (authorized and captured), its record, and its reversal (desfazimento). */
export interface CardCapability {
  keyOf(reference: string): string;
  authorization(key: string, request: CardAuthorization): PendingCall;
  find(charge: KnownCharge): Promise<ChargeRecord | undefined>;
  reverse(charge: KnownCharge): Promise<ChargeRecord | undefined>;
}

/** The charge a refund is of, read only by a connector that needs it (Cielo reads its sale; a Pix devolução goes by the endToEndId). */
export type ChargeLookup = () => Promise<(KnownCharge & { method: string }) | undefined>;

export interface RefundCapability {
  refund(request: RefundRequest, charge: ChargeLookup): Promise<RefundRecord>;
  findRefund(request: RefundRequest, charge: ChargeLookup): Promise<RefundRecord | undefined>;
}

/** A payment the provider reports, by the key we gave its charge; the core finds our reference. */
export type KeyedPayment = Omit<ReceivedPayment, 'reference'> & { key: string };

/** Notifications the provider posts: the ids a body claims, each verified with the provider. */
export interface NotificationCapability {
  claims(body: unknown): string[] | undefined;
  verify(paymentId: string): Promise<KeyedPayment | undefined>;
  /** Subscribes where the provider's API allows it (Pix: PUT /webhook/{chave}); absent where it is set up elsewhere. */
  subscribe?(): Promise<string>;
}

/** Reconciliation: what was paid for one charge, and what was paid in a window whatever the charge. */
export interface PaymentsListing {
  paymentsOf(charge: KnownCharge): Promise<ReceivedPayment[]>;
  paymentsBetween(from: Date, to: Date): Promise<KeyedPayment[]>;
}

export interface HealthCheck {
  /** One line proving the connection works, or an Error naming the variable to fix. */
  check(): Promise<string>;
}

export interface Connector {
  /** As configured: bcb-api-pix, cielo. */
  readonly name: string;
  readonly pix?: ChargeCapability;
  readonly boleto?: ChargeCapability;
  readonly card?: CardCapability;
  readonly refunds?: RefundCapability;
  readonly notifications?: NotificationCapability;
  readonly payments?: PaymentsListing;
  readonly health: HealthCheck;
  /** Releases the connections (tests, shutdown). */
  close?(): Promise<void>;
}

/** A method configured with a connector that lacks its capability: refused when the configuration is read. */
export class CapabilityNotSupported extends ConfigError {
  constructor(variable: string, connector: string, what: string) {
    super(variable, `${connector} does not ${what}`);
    this.name = 'CapabilityNotSupported';
  }
}
