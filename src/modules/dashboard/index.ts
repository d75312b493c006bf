export { dashboardRoutes, DASHBOARD_API, type DashboardDeps } from './routes.js';
export { DashboardService } from './service.js';
