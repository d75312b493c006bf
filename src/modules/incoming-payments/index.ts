export { IncomingPayments } from './service.js';
export { notificationRoutes } from './routes.js';
