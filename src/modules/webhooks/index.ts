export { WebhookService } from './service.js';
export { webhookRoutes } from './routes.js';
export { webhookFanOut } from './fan-out.js';
export { DeliveryWorker, httpSender, DELIVERY_LEASE_MS, type Sender, type SendResult, type DeliveryLoop } from './delivery.js';
export { systemResolver, type Resolver } from './url-guard.js';
export { webhookDocs } from './openapi.js';
