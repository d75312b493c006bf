export { EVENT_TYPES, INTENT_EVENT_TYPES, WEBHOOK_EVENT_TYPES, type IntentEventData, type IntentEventType, deliveredBody, type EventType, type WebhookEventType, type WebhookSnapshot } from './rules.js';
export { Outbox, type Delivery, type DeliveryFanOut, type RecordedEvent } from './outbox.js';
export { EventService } from './service.js';
export { eventsByIds } from './repo.js';
export { eventRoutes } from './routes.js';
export * from './schemas.js';
