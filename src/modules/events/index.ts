export * from './outbox.js';
