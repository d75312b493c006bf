export { EVENT_TYPES, type EventType, type TransactionSnapshot } from './rules.js';
export { Outbox, type Delivery, type DeliveryFanOut, type RecordedEvent } from './outbox.js';
export { EventService, type EventDeps, type ResendResult } from './service.js';
export { eventsByIds, type StoredEvent } from './repo.js';
export { eventRoutes } from './routes.js';
export * from './schemas.js';
