/**
 * The services one process builds (app.ts's buildServices) and every part
 * reaches them through: the routes, the workers, the dashboard. Apart from
 * app.ts so that a module taking them (the dashboard) does not import the
 * file that registers its routes.
 */
import type { AuditLog } from './modules/audit/index.js';
import type { CompanyService } from './modules/companies/index.js';
import type { EventService } from './modules/events/index.js';
import type { IdempotencyService } from './modules/idempotency/index.js';
import type { IncomingPayments } from './modules/incoming-payments/index.js';
import type { PaymentIntentService, VaultNotices } from './modules/payment-intents/index.js';
import type { PaymentLinkService, PaymentPageService } from './modules/payment-links/index.js';
import type { ReceivableService } from './modules/receivables/index.js';
import type { RefundService } from './modules/refunds/index.js';
import type { TransactionService } from './modules/transactions/index.js';
import type { UserService } from './modules/users/index.js';
import type { DeliveryWorker, WebhookService } from './modules/webhooks/index.js';

export interface Services {
  idempotency: IdempotencyService;
  companies: CompanyService;
  transactions: TransactionService;
  intents: PaymentIntentService;
  /** Tells the vault which card intents are over (run by the worker too). */
  vaultNotices: VaultNotices;
  paymentLinks: PaymentLinkService;
  paymentPages: PaymentPageService;
  receivables: ReceivableService;
  refunds: RefundService;
  webhooks: WebhookService;
  events: EventService;
  deliveries: DeliveryWorker;
  incomingPayments: IncomingPayments;
  /** The dashboard's people, sessions and team. */
  users: UserService;
  /** The dashboard's audit log. */
  audit: AuditLog;
}
