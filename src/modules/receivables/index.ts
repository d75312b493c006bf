export { ReceivableService, type ReceivableListQuery } from './service.js';
export { receivableRoutes } from './routes.js';
