/**
 * The acquirer: who registers Pix charges and boletos and authorizes cards. It is called outside any database transaction. Every call carries
 * our reference (the intent id), and the acquirer keeps its own record under
 * it, so a confirmation interrupted after the call is finished from that
 * record by `findCharge` instead of calling again (never a second charge).
 */
type ChargeMethod = 'PIX' | 'BOLETO' | 'CREDIT_CARD';

export interface ChargeRequest {
  reference: string;
  method: ChargeMethod;
  amountCents: number;
}

export interface ChargeRecord {
  reference: string;
  /** The acquirer's id for the charge. */
  providerId: string;
  approved: boolean;
  refusalCode?: string;
  refusalMessage?: string;
  /** For cards: what may be shown of the card. Never the number or the CVV. */
  card?: { brand: string; last4: string };
  /** When an approval was reversed (desfazimento, ISO time): no money moves for it. */
  reversedAt?: string;
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

/** The acquirer did not answer (timeout, network, 5xx): the outcome is unknown. */
export class AcquirerUnavailable extends Error {
  constructor(message = 'The acquirer did not answer') {
    super(message);
    this.name = 'AcquirerUnavailable';
  }
}

export interface Acquirer {
  /** Registers a Pix charge or a boleto; throws AcquirerUnavailable when silent. */
  register(request: ChargeRequest): Promise<ChargeRecord>;
  /** Authorizes a card (approved or refused); throws AcquirerUnavailable when silent. Called by the vault only. */
  authorizeCard(request: CardAuthorization): Promise<ChargeRecord>;
  /** The acquirer's record for a reference, if it ever answered for it. */
  findCharge(reference: string): Promise<ChargeRecord | undefined>;
  /**
   * Reverses (desfazimento) the approval of a reference that we recorded as
   * FAILED: afterwards `findCharge` shows `reversedAt`. Idempotent; returns
   * the record (undefined when the acquirer has none). Throws
   * AcquirerUnavailable when silent: the caller leaves it for the worker.
   */
  reverse(reference: string): Promise<ChargeRecord | undefined>;
}
