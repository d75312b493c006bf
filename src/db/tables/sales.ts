/**
 * Table types (sales) for Kysely: see ../types.ts.
 * Sellers and their sales: companies and their API keys, recipient accounts, payment intents and links,
 * transactions, their refunds and receivables.
 */
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp, Json, NullableJson } from './columns.js';

export interface FeePlan {
  pixBp: number;
  boletoFlatCents: number;
  card1Bp: number;
  card2to6Bp: number;
  card7to12Bp: number;
}

export interface CompaniesTable {
  id: string;
  name: string;
  document: string;
  fee_plan: Json<FeePlan>;
  created_at: Timestamp;
  /** The dashboard requires two-step verification of every member. */
  require_totp: Generated<boolean>;
}

export interface ApiKeysTable {
  id: string;
  company_id: string;
  environment: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  token_hash: string;
  /** Last four characters, so an operator can tell keys apart. */
  hint: string;
  /** null: every scope. */
  scopes: NullableJson<string[]>;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  /** Given in the dashboard; null for keys issued by the operator or before names existed. */
  name: ColumnType<string | null, string | null | undefined, string | null>;
  /** Written by authentication at most once a minute per key. */
  last_used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The dashboard member (users.id) who created it; null for the operator's and older keys. */
  created_by: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AccountsTable {
  document: string;
  name: string;
  status: 'PENDING_APPROVAL' | 'APPROVED';
  created_at: Timestamp;
  approved_at: Timestamp | null;
}

export interface PaymentIntentsTable {
  id: string;
  company_id: string;
  status: string;
  amount_cents: number;
  payment_method: string;
  installments: number;
  reference_id: string;
  description: string | null;
  buyer: Json<unknown>;
  split_rules: NullableJson<unknown[]>;
  metadata: NullableJson<Record<string, string>>;
  pix_expires_in_seconds: number | null;
  boleto_due_date: string | null;
  expires_at: Timestamp;
  /** Set when a confirmation has called the acquirer and not yet recorded its answer. */
  confirm_started_at: Timestamp | null;
  /** Idempotency-Key of the confirmation that won; a retry with it gets the same transaction. */
  confirm_key: string | null;
  /** Idempotency-Key of a create with `confirm: true`; a retry with it resumes that intent. */
  create_key: string | null;
  /** Set when the intent was recorded FAILED not knowing whether the card was charged; the worker resolves it (payment-intents/recovery.ts). */
  outcome_unknown_since: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The id the transaction will have, chosen when the confirmation is claimed (the Pix txid is derived from it). */
  reserved_transaction_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The payment link the intent pays (created through its hosted page). */
  payment_link_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the vault acknowledged that this card intent is over (payment-intents/vault-notices.ts); NULL until then, and for other methods. */
  vault_told_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  transaction_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PaymentLinksTable {
  id: string;
  company_id: string;
  amount_cents: number;
  description: string;
  payment_methods: Json<string[]>;
  max_installments: number;
  split_rules: NullableJson<unknown[]>;
  expires_at: Timestamp | null;
  /** How many payments the link takes; null: unlimited. */
  max_payments: number | null;
  metadata: NullableJson<Record<string, string>>;
  reference_id: string | null;
  canceled_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TransactionsTable {
  id: string;
  company_id: string;
  payment_intent_id: string;
  status: string;
  payment_method: string;
  installments: number;
  amount_cents: number;
  fee_cents: number;
  net_amount_cents: number;
  reference_id: string;
  description: string | null;
  buyer: Json<unknown>;
  payment_details: Json<unknown>;
  metadata: NullableJson<Record<string, string>>;
  split_rules: NullableJson<unknown[]>;
  /** When an unpaid Pix or boleto stops being payable and becomes CANCELED. */
  cancel_at: Timestamp | null;
  /** Copied from the intent: the payment link this sale paid. */
  payment_link_id: ColumnType<string | null, string | null | undefined, string | null>;
  paid_at: Timestamp | null;
  canceled_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** What SUCCEEDED refunds gave back. */
  refunded_cents: ColumnType<number, number | undefined, number>;
  /** The fee of the sale before any refund (null until a refund changed `fee_cents`, which is then the fee kept). */
  sale_fee_cents: ColumnType<number | null, number | null | undefined, number | null>;
  charged_back_cents: ColumnType<number, number | undefined, number>;
  charged_back_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** 1 when created, one more at each state change (webhook `data.transaction.version`). */
  version: ColumnType<number, number | undefined, number>;
}

/** A refund of (part of) a paid transaction: PENDING until the provider's outcome is known. */
export interface RefundsTable {
  id: string;
  company_id: string;
  transaction_id: string;
  amount_cents: number;
  reason: string | null;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  /** The connector asked (simulated, bcb-api-pix, cielo). */
  provider: string;
  provider_id: string | null;
  failure_reason: string | null;
  /** The Idempotency-Key of the request that asked it: a retry resumes this refund. */
  request_key: string | null;
  /** When the provider was first asked (null: not yet). */
  asked_at: Timestamp | null;
  /** When the worker looks at it next while PENDING. */
  next_check_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ReceivablesTable {
  id: string;
  company_id: string;
  transaction_id: string;
  recipient_document: string;
  role: 'SELLER' | 'CUSTOM_SPLIT_RECIPIENT';
  installment: number;
  /** Order of the line within its transaction: by installment, seller first, then rule order. */
  position: number;
  gross_amount_cents: number;
  fee_cents: number;
  amount_cents: number;
  expected_on: string;
  status: 'PENDING' | 'PAID';
  paid_at: Timestamp | null;
  created_at: Timestamp;
  /** null: a line of the sale; REFUND or CHARGEBACK: an adjustment line (negative amounts) of that reversal. */
  adjustment: ColumnType<'REFUND' | 'CHARGEBACK' | null, 'REFUND' | 'CHARGEBACK' | null | undefined, 'REFUND' | 'CHARGEBACK' | null>;
  refund_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Per company, São Paulo day and shard: the sums the dashboard's home shows (modules/daily-totals; migration 022). */
export interface DailyTotalsTable {
  company_id: string;
  /** YYYY-MM-DD: the day a sale was paid, a line is expected, or lines were settled (by column). */
  day: string;
  shard: number;
  paid_count: ColumnType<number, number | undefined, number>;
  paid_cents: ColumnType<number, number | undefined, number>;
  fee_cents: ColumnType<number, number | undefined, number>;
  refunded_count: ColumnType<number, number | undefined, number>;
  refunded_cents: ColumnType<number, number | undefined, number>;
  charged_back_count: ColumnType<number, number | undefined, number>;
  charged_back_cents: ColumnType<number, number | undefined, number>;
  to_receive_cents: ColumnType<number, number | undefined, number>;
  received_cents: ColumnType<number, number | undefined, number>;
}
