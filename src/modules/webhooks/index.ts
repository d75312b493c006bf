export { WebhookService, type WebhookDeps } from './service.js';
export { webhookView, type WebhookView, type AttemptView } from './view.js';
export { webhookRoutes } from './routes.js';
export { webhookFanOut } from './fan-out.js';
export { MAX_ACTIVE_WEBHOOKS, nextAttemptDelay } from './rules.js';
export { DeliveryWorker, httpSender, DELIVERY_TIMEOUT_MS, DELIVERY_LEASE_MS, type DeliveryDeps, type HttpSenderOptions, type Sender, type SendResult } from './delivery.js';
export { signature, newWebhookSecret } from './signature.js';
export { checkWebhookUrl, systemResolver, type Resolver } from './url-guard.js';
