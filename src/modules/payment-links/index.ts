export { PaymentLinkService } from './service.js';
export { PaymentPageService } from './page-service.js';
export { paymentLinkRoutes } from './routes.js';
export { paymentPageRoutes } from './page-routes.js';
export { linkSlotGuard } from './slots.js';
export * from './schemas.js';
export { ReceiptTokens } from './receipt.js';
