/**
 * Table types (providers) for Kysely: see ../types.ts.
 * The providers' side: the simulated acquirer's ledger, the charges asked of providers, their
 * notifications and the payments they reported.
 */
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp, Json } from './columns.js';

/** The simulated acquirer's own record of each charge it answered, looked up by recovery. */
export interface AcquirerChargesTable {
  reference: string;
  method: string;
  amount_cents: number;
  outcome: Json<unknown>;
  created_at: Timestamp;
  /** When an approval was reversed (desfazimento): it was answered after we declared the intent FAILED. */
  reversed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface ProviderChargesTable {
  /** Our reference: the intent id. */
  reference: string;
  provider: string;
  method: string;
  /** The key we gave the provider (Pix txid, Cielo MerchantOrderId), derived from our ids. */
  provider_key: string;
  /** The provider's own id once it answered (Cielo PaymentId; the txid for Pix). */
  provider_id: string | null;
  transaction_id: string | null;
  amount_cents: number;
  created_at: Timestamp;
  checked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  settled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface ProviderNotificationsTable {
  id: Generated<number>;
  provider: string;
  payment_id: string;
  received_at: Timestamp;
  attempts: Generated<number>;
  processed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  outcome: string | null;
}

export interface ReceivedPaymentsTable {
  provider: string;
  payment_id: string;
  reference: string;
  transaction_id: string | null;
  amount_cents: number;
  paid_at: Timestamp;
  recorded_at: Timestamp;
  /** applied (the transaction became PAID), amount_mismatch, not_pending (paid after it closed: to give back). */
  outcome: string;
}
