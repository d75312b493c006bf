export * from './outbox.js';
export { EventService } from './service.js';
