export { ReceivableService } from './service.js';
export { receivableRoutes } from './routes.js';
