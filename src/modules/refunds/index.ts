export * from './schemas.js';
export { RefundService } from './service.js';
export { refundRoutes, sandboxRefundRoutes } from './routes.js';
