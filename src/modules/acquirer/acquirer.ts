/**
 * The acquirer: who registers Pix charges and boletos (and, later, authorizes
 * cards). It is called outside any database transaction. Every call carries
 * our reference (the intent id), and the acquirer keeps its own record under
 * it, so a confirmation interrupted after the call is finished from that
 * record by `findCharge` instead of calling again (never a second charge).
 */
export type ChargeMethod = 'PIX' | 'BOLETO' | 'CREDIT_CARD';

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
  /** The acquirer's record for a reference, if it ever answered for it. */
  findCharge(reference: string): Promise<ChargeRecord | undefined>;
}
