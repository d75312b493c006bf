export { ReceivableService, receivableView } from './service.js';
export { receivableRoutes } from './routes.js';
