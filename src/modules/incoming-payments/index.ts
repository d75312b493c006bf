export { IncomingPayments, type ApplyOutcome } from './service.js';
export { notificationRoutes, NOTIFICATION_PATHS } from './routes.js';
