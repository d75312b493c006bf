export { WebhookService, webhookView } from './service.js';
export { webhookRoutes } from './routes.js';
export { DeliveryWorker, httpSender, nextAttemptDelay, DELIVERY_TIMEOUT_MS, RETRY_DELAYS_MS, DELIVERY_LEASE_MS, type Sender, type SendResult } from './delivery.js';
export { signature, newWebhookSecret } from './signature.js';
export { checkWebhookUrl, systemResolver, type Resolver } from './url-guard.js';
