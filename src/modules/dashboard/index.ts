export { dashboardRoutes, type DashboardDeps } from './routes.js';
