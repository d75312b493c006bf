/**
 * A payment provider as the rest of the service calls it: who registers Pix
 * charges and boletos (PaymentProvider), authorizes cards (CardAcquirer),
 * and tells us what was paid. A real connector offers capabilities
 * (capabilities.ts) and the core joins them to the database
 * (connected-provider.ts); the sandbox's provider (simulated/) implements
 * these interfaces itself, its ledger being a table of this database. Which
 * connector serves which method is configuration (router.ts).
 *
 * Every call is made outside any database transaction and carries our
 * reference (the intent id). The provider keeps its own record under it (a
 * real connector derives the provider's key from it: the Pix txid, Cielo's
 * MerchantOrderId), so a confirmation interrupted after the call is finished
 * from that record by `findCharge` instead of calling again (never a second
 * charge).
 */
import type { InsertFragment } from '../../db/one-statement.js';

export type ChargeMethod = 'PIX' | 'BOLETO' | 'CREDIT_CARD';

/** The buyer as the payment intent holds it. */
export interface ChargeBuyer {
  name: string;
  /** CPF (11 digits) or CNPJ (14 characters, numeric or alphanumeric), without punctuation. */
  document: string;
  email?: string;
  address?: { street: string; number: string; complement?: string; neighborhood: string; city: string; state: string; zipCode: string };
}

/** A Pix charge or a boleto to register. */
export interface ChargeRequest {
  reference: string;
  /**
   * The id the transaction will have, fixed when the confirmation is claimed,
   * so every retry of the same confirmation sends the same provider key
   * (the Pix txid is derived from it).
   */
  transactionId: string;
  method: 'PIX' | 'BOLETO';
  amountCents: number;
  buyer: ChargeBuyer;
  /** Shown to the payer (Pix `solicitacaoPagador`, boleto instructions). */
  description?: string;
  /** Pix: seconds from registration until the charge expires. */
  expiresInSeconds?: number;
  /** Boleto: due date, YYYY-MM-DD. */
  dueDate?: string;
}

export interface ChargeRecord {
  reference: string;
  /** The provider's id for the charge (Pix txid, Cielo PaymentId, sim_…). */
  providerId: string;
  approved: boolean;
  refusalCode?: string;
  refusalMessage?: string;
  /** For cards: what may be shown of the card. Never the number or the CVV. */
  card?: { brand: string; last4: string };
  /** When an approval was reversed (desfazimento, ISO time): no money moves for it. */
  reversedAt?: string;
  /** Pix issued by the provider: its "copia e cola" (absent: the simulated provider, whose code we build). */
  pix?: { qrCode: string };
  /** A boleto issued by the provider (absent: the simulated provider, whose boleto we build). */
  boleto?: { digitableLine: string; barcode: string; url: string };
}

/** An approval that stands: approved and not reversed. Only such a record may make a transaction PAID. */
export const isStandingApproval = (record: ChargeRecord | undefined): record is ChargeRecord => record !== undefined && record.approved && !record.reversedAt;

/** A card authorization; only the vault builds one, since only the vault sees the card. */
export interface CardAuthorization {
  reference: string;
  amountCents: number;
  installments: number;
  card: { number: string; cvv: string; expMonth: number; expYear: number; holderName: string; brand: string; last4: string };
}

/**
 * A payment the provider itself reports for one of our charges (a Pix
 * received, a boleto paid), as read from the provider, never from a
 * notification's body alone. `paymentId` (the Pix endToEndId, Cielo's
 * PaymentId) is applied once.
 */
export interface ReceivedPayment {
  paymentId: string;
  reference: string;
  amountCents: number;
  paidAt: Date;
}

/** A refund (Pix devolução, card void with an amount) of part or all of a paid charge. */
export interface RefundRequest {
  reference: string;
  /** Our refund id: the provider's key for the refund, so a retry never refunds twice. */
  refundId: string;
  amountCents: number;
  /** The payment refunded (Pix: its endToEndId). */
  paymentId?: string;
  reason?: string;
  /**
   * What the charge's other refunds already gave back (SUCCEEDED): a provider
   * that keeps only a total per sale (Cielo's VoidedAmount) tells this refund
   * apart by it. Exact because a card has at most one refund PENDING at a time.
   */
  refundedBeforeCents?: number;
}

export interface RefundRecord {
  refundId: string;
  /** PENDING: asked, not yet done (Pix devoluções are asynchronous: ask again with findRefund). */
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  providerId?: string;
  failureReason?: string;
}

/** The provider did not answer (timeout, network, 5xx): the outcome is unknown. */
export class ProviderUnavailable extends Error {
  constructor(message = 'The payment provider did not answer') {
    super(message);
    this.name = 'ProviderUnavailable';
  }
}

/**
 * A Pix charge or boleto split at the rule "persist, call, persist": the
 * provider's record of the charge about to be sent (its key: the Pix txid,
 * Cielo's MerchantOrderId) as an unexecuted INSERT, which the caller writes
 * in the statement that claims the intent, and the call to make once that
 * statement committed.
 */
export interface PreparedCharge {
  insert: InsertFragment;
  /**
   * Calls the provider (after `insert` committed) and answers its record;
   * throws ProviderUnavailable when silent. For a new reference only: a retry
   * goes through `register`, which finds the record kept.
   */
  send(): Promise<ChargeRecord>;
}

export interface PaymentProvider {
  /** The connector's name, as configured: simulated, bcb-api-pix, cielo. */
  readonly name: string;
  /**
   * A provider whose record lives in this database (the simulated one): what
   * it answers a new reference and the unexecuted INSERT of its record, so a
   * create-and-confirm writes its record, the intent and the transaction in
   * one statement, together or not at all. Throws ProviderUnavailable when
   * silent. It issues no codes of its own (no `pix`, no `boleto` on the record).
   */
  registration?(request: ChargeRequest): { record: ChargeRecord; insert: InsertFragment };
  /**
   * A provider that records a charge before calling (a real connector, through
   * the core: ConnectedProvider): `register` for a NEW reference, split in two (PreparedCharge), so a
   * create-and-confirm claims the key, the intent and this record in one
   * statement. Throws (as `register` would) when the request is not one it takes.
   */
  prepare?(request: ChargeRequest): PreparedCharge;
  /** Registers a Pix charge or a boleto; throws ProviderUnavailable when silent. */
  register(request: ChargeRequest): Promise<ChargeRecord>;
  /** The provider's record for a reference, if it ever answered for it. */
  findCharge(reference: string): Promise<ChargeRecord | undefined>;
  /** Withdraws an unpaid Pix charge or boleto (ours expired or was canceled first). Idempotent. */
  cancel(reference: string): Promise<void>;
  /** What the provider says was paid for a charge (reconciliation): empty while unpaid. */
  paymentsOf(reference: string): Promise<ReceivedPayment[]>;
  /** Payments received in a window, whatever their charge (reconciliation of lost notifications); empty where the provider has no such query. */
  paymentsBetween(from: Date, to: Date): Promise<ReceivedPayment[]>;
  /**
   * The payment ids a notification body claims (endToEndIds, PaymentIds),
   * undefined when the body is not this provider's notification. Nothing in
   * it is trusted: each id is confirmed with `verifyPayment`.
   */
  notificationClaims(body: unknown): string[] | undefined;
  /** The payment as the provider records it, undefined when it knows none (a forged or mistaken claim). */
  verifyPayment(paymentId: string): Promise<ReceivedPayment | undefined>;
  /** Refunds all or part of a paid charge; idempotent by `refundId`. */
  refund(request: RefundRequest): Promise<RefundRecord>;
  /** The current state of a refund asked earlier. */
  findRefund(request: RefundRequest): Promise<RefundRecord | undefined>;
  /**
   * Subscribes to the provider's notifications where its API allows it (Pix:
   * PUT /webhook/{chave} with PIX_WEBHOOK_URL); resolves to what was
   * registered. Absent where the operator sets it up elsewhere (Cielo's
   * merchant portal) or nothing is sent (simulated).
   */
  registerNotifications?(): Promise<string>;
  /** Proves the configured connection works (credentials accepted, a query answered); resolves to a one-line description, or throws naming the variable to fix. */
  check(): Promise<string>;
}

/** A provider that authorizes cards (CARD_PROVIDER): only such a one serves CREDIT_CARD, so nothing asks a Pix PSP for a card. */
export interface CardAcquirer extends PaymentProvider {
  /** Authorizes and captures a card (approved or refused); throws ProviderUnavailable when silent. Called by the vault only. */
  authorizeCard(request: CardAuthorization): Promise<ChargeRecord>;
  /**
   * Reverses (desfazimento) the approval of a reference that we recorded as
   * FAILED: afterwards `findCharge` shows `reversedAt`. Idempotent; returns
   * the record (undefined when the provider has none). Throws
   * ProviderUnavailable when silent: the caller leaves it for the worker.
   */
  reverse(reference: string): Promise<ChargeRecord | undefined>;
}
