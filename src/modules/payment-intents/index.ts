export { PaymentIntentService } from './service.js';
export { paymentIntentRoutes } from './routes.js';
export * from './schemas.js';
export { BOLETO_MIN_CENTS, INTENT_LIFETIME_MS } from './rules.js';
export { intentTokenGate } from './token-state.js';
export { countClaimedOfLink } from './repo.js';
export type { SplitRulesCheck } from './service.js';
export type { ClaimGuard } from './claim.js';
