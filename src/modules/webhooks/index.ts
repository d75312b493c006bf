export { WebhookService } from './service.js';
export { webhookRoutes } from './routes.js';
export { webhookFanOut } from './fan-out.js';
export { DeliveryWorker, DELIVERY_LEASE_MS, type DeliveryLoop } from './delivery.js';
export { httpSender, type Sender, type SendResult } from './sender.js';
export { systemResolver, type Resolver } from './url-guard.js';
export { webhookDocs } from './openapi.js';
export { shownWebhookUrl } from './view.js';
