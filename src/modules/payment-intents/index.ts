export { PaymentIntentService } from './service.js';
export { VaultNotices } from './vault-notices.js';
export { paymentIntentRoutes } from './routes.js';
export * from './schemas.js';
export { BOLETO_MIN_CENTS, INTENT_LIFETIME_MS } from './rules.js';
export { countClaimedOfLink } from './repo.js';
export type { SplitRulesCheck } from './service.js';
export type { ClaimGuard } from './claim.js';
