export * from './schemas.js';
export { RefundService } from './service.js';
export { refundView, type RefundView } from './view.js';
export { refundRoutes, sandboxRefundRoutes } from './routes.js';
