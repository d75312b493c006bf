export { PaymentIntentService } from './service.js';
export { paymentIntentRoutes } from './routes.js';
export * from './schemas.js';
export { INTENT_LIFETIME_MS } from './rules.js';
export { intentTokenGate } from './token-state.js';
