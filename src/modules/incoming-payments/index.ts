export { IncomingPayments } from './service.js';
export { notificationRoutes } from './routes.js';
export { appliedPaymentOf } from './repo.js';
