/**
 * Table types for Kysely. Money columns are int8 in the database and numbers
 * here (the drivers are told to parse int8 as a JS number; every amount fits
 * far below 2^53). Dates (`date`) are `YYYY-MM-DD` strings; timestamps are Date.
 */
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json<T> = ColumnType<T, string, string>;
type NullableJson<T> = ColumnType<T | null, string | null, string | null>;

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
}

interface AccountsTable {
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

interface TransactionsTable {
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
interface RefundsTable {
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

interface ReceivablesTable {
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

/** The outbox and event log: one row per event, written with the state change that caused it. */
interface EventsTable {
  id: string;
  company_id: string;
  type: string;
  /** NULL for an event about something else than a transaction (webhook.disabled). */
  transaction_id: string | null;
  /** The event body exactly as delivered: {id, type, createdAt, data}. */
  body: string;
  created_at: Timestamp;
}

export interface WebhooksTable {
  id: string;
  company_id: string;
  url: string;
  events: Json<string[]>;
  description: string | null;
  /** The signing secret, sealed with AES-256-GCM (lib/aes-gcm.ts). */
  secret_sealed: string;
  active: boolean;
  created_at: Timestamp;
  deleted_at: Timestamp | null;
  /** The first failed attempt since the last success; NULL while deliveries succeed. */
  failing_since: Timestamp | null;
  /** When the registration was disabled for failing WEBHOOK_DISABLE_AFTER; NULL: enabled. */
  disabled_at: Timestamp | null;
}

/** One row per (event, registration): the unit that is retried. */
export interface WebhookDeliveriesTable {
  id: string;
  company_id: string;
  webhook_id: string;
  event_id: string;
  /** HELD: waiting for its disabled registration to be enabled again (shown as PENDING). */
  state: 'PENDING' | 'HELD' | 'SUCCEEDED' | 'FAILED' | 'CANCELED';
  attempts: number;
  next_attempt_at: Timestamp;
  /** Lease of the worker sending it; a crashed worker's lease runs out and another takes the delivery. */
  locked_until: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookAttemptsTable {
  id: string;
  company_id: string;
  delivery_id: string;
  webhook_id: string;
  event_id: string;
  attempt: number;
  attempted_at: Timestamp;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  succeeded: boolean;
}

export interface IdempotencyKeysTable {
  company_id: string;
  key: string;
  fingerprint: string;
  /** STARTED while the first request runs, DONE once its response is stored. */
  state: 'STARTED' | 'DONE';
  response_status: number | null;
  response_body: string | null;
  /** The claiming route's success status, stored when the key is claimed. */
  success_status: number;
  /** A STARTED row whose lease ran out belonged to a request that died; a retry may take it over. */
  locked_until: Timestamp;
  created_at: Timestamp;
}

/** The simulated acquirer's own record of each charge it answered, looked up by recovery. */
interface AcquirerChargesTable {
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

export interface VaultKeysTable {
  key_id: string;
  public_jwk: Json<Record<string, unknown>>;
  /** The private JWK, sealed with a key derived from VAULT_MASTER_KEY. */
  private_sealed: string;
  created_at: Timestamp;
  /** Set when a newer key became current; the key still decrypts until retired. */
  superseded_at: Timestamp | null;
}

export interface VaultTokensTable {
  id: string;
  /** SHA-256 of the `vtk_` token; the token itself is not stored. */
  token_hash: string;
  intent_id: string;
  company_id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  /** Number, holder name and expiry, sealed with a key derived from VAULT_MASTER_KEY; NULL once erased (spent, or its intent closed). */
  card_sealed: string | null;
  /** The CVV, sealed separately; erased with the card. */
  cvv_sealed: string | null;
  /** The card's keyed HMAC fingerprint (card-fingerprint.ts), kept after the card is erased; NULL only on tokens stored before migration 014 until the sweep fills it. */
  fingerprint: string | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

/** Encrypted cards already tokenized (digest of IV and tag): each is accepted once. */
interface VaultUsedJwesTable {
  digest: string;
  expires_at: Timestamp;
}

/** The card intents the vault knows are over, until their expiry (vault/closed-intents.ts). */
interface VaultClosedIntentsTable {
  intent_id: string;
  expires_at: Timestamp;
  closed_at: Timestamp;
}

/** The intents a card (keyed fingerprint) was tokenized for, per hour window: the per-card velocity limit. */
interface VaultCardIntentsTable {
  fingerprint: string;
  window_start: Timestamp;
  intent_id: string;
}

interface VaultAttemptsTable {
  scope: string;
  key: string;
  window_start: Timestamp;
  count: number;
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

export interface UsersTable {
  id: string;
  /** Lower-cased. */
  email: string;
  name: string;
  /** scrypt$<log2 N>$<r>$<p>$<salt>$<hash>: the parameters travel with the hash. */
  password_hash: string;
  /** The TOTP secret (base32), sealed; set at enrolment, confirmed when totp_enabled_at is set. */
  totp_secret_sealed: string | null;
  totp_enabled_at: Timestamp | null;
  /** The last 30-second step whose code was accepted: a code is never accepted twice. */
  totp_last_step: number | null;
  created_at: Timestamp;
}

export interface MembershipsTable {
  user_id: string;
  company_id: string;
  role: string;
  created_at: Timestamp;
}

interface RecoveryCodesTable {
  user_id: string;
  /** SHA-256 of the normalised code, hex. */
  code_hash: string;
  used_at: Timestamp | null;
}

export interface InvitationsTable {
  /** SHA-256 of the token, hex; the token itself is only in the URL given out. */
  token_hash: string;
  company_id: string;
  email: string;
  role: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface DashboardSessionsTable {
  /** SHA-256 of the cookie's id, hex. */
  id_hash: string;
  user_id: string;
  company_id: string;
  csrf_token: string;
  stage: 'totp' | 'active';
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
}

interface SignInFailuresTable {
  email: string;
  at: Timestamp;
}

interface SignInLockoutsTable {
  email: string;
  until: Timestamp;
}

export interface AuditLogTable {
  id: string;
  company_id: string;
  user_id: string | null;
  email: string;
  action: string;
  target: string | null;
  ip: string;
  details: NullableJson<Record<string, string | number | boolean>>;
  at: Timestamp;
}

export interface Database {
  companies: CompaniesTable;
  api_keys: ApiKeysTable;
  accounts: AccountsTable;
  payment_intents: PaymentIntentsTable;
  transactions: TransactionsTable;
  receivables: ReceivablesTable;
  refunds: RefundsTable;
  events: EventsTable;
  idempotency_keys: IdempotencyKeysTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  'vault.keys': VaultKeysTable;
  'vault.tokens': VaultTokensTable;
  'vault.attempts': VaultAttemptsTable;
  'vault.used_jwes': VaultUsedJwesTable;
  'vault.card_intents': VaultCardIntentsTable;
  'vault.closed_intents': VaultClosedIntentsTable;
  acquirer_charges: AcquirerChargesTable;
  provider_charges: ProviderChargesTable;
  provider_notifications: ProviderNotificationsTable;
  received_payments: ReceivedPaymentsTable;
  payment_links: PaymentLinksTable;
  users: UsersTable;
  memberships: MembershipsTable;
  recovery_codes: RecoveryCodesTable;
  invitations: InvitationsTable;
  dashboard_sessions: DashboardSessionsTable;
  sign_in_failures: SignInFailuresTable;
  sign_in_lockouts: SignInLockoutsTable;
  audit_log: AuditLogTable;
}

export type PaymentIntentRow = Selectable<PaymentIntentsTable>;
export type NewPaymentIntent = Insertable<PaymentIntentsTable>;
export type PaymentLinkRow = Selectable<PaymentLinksTable>;
export type NewPaymentLink = Insertable<PaymentLinksTable>;
export type TransactionRow = Selectable<TransactionsTable>;
export type NewTransaction = Insertable<TransactionsTable>;
export type RefundRow = Selectable<RefundsTable>;
export type NewRefund = Insertable<RefundsTable>;
export type ReceivableRow = Selectable<ReceivablesTable>;
export type NewReceivable = Insertable<ReceivablesTable>;
export type WebhookRow = Selectable<WebhooksTable>;
