/**
 * Table types for Kysely. Money columns are int8 in the database and numbers
 * here (the drivers are told to parse int8 as a JS number; every amount fits
 * far below 2^53). Dates (`date`) are `YYYY-MM-DD` strings; timestamps are Date.
 *
 * The tables are declared by area in tables/; this file joins them into the
 * database's shape and names the rows the modules read and write.
 */
import type { Insertable, Selectable } from 'kysely';
import type {
  FeePlan,
  CompaniesTable,
  ApiKeysTable,
  AccountsTable,
  PaymentIntentsTable,
  PaymentLinksTable,
  TransactionsTable,
  RefundsTable,
  ReceivablesTable,
  DailyTotalsTable,
} from './tables/sales.js';
import type { EventsTable, WebhooksTable, WebhookDeliveriesTable, WebhookAttemptsTable, IdempotencyKeysTable } from './tables/delivery.js';
import type { AcquirerChargesTable, ProviderChargesTable, ProviderNotificationsTable, ReceivedPaymentsTable } from './tables/providers.js';
import type { VaultKeysTable, VaultTokensTable, VaultUsedJwesTable, VaultCardIntentsTable, VaultClosedIntentsTable, VaultAttemptsTable } from './tables/vault.js';
import type {
  UsersTable,
  MembershipsTable,
  RecoveryCodesTable,
  InvitationsTable,
  DashboardSessionsTable,
  SignInFailuresTable,
  SignInLockoutsTable,
  AuditLogTable,
} from './tables/dashboard.js';

export type {
  FeePlan,
  CompaniesTable,
  ApiKeysTable,
  PaymentIntentsTable,
  WebhooksTable,
  WebhookDeliveriesTable,
  WebhookAttemptsTable,
  IdempotencyKeysTable,
  ProviderChargesTable,
  ProviderNotificationsTable,
  ReceivedPaymentsTable,
  VaultKeysTable,
  VaultTokensTable,
  PaymentLinksTable,
  UsersTable,
  MembershipsTable,
  InvitationsTable,
  DashboardSessionsTable,
  AuditLogTable,
};

export interface Database {
  companies: CompaniesTable;
  api_keys: ApiKeysTable;
  accounts: AccountsTable;
  payment_intents: PaymentIntentsTable;
  transactions: TransactionsTable;
  receivables: ReceivablesTable;
  daily_totals: DailyTotalsTable;
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
