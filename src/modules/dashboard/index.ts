export { dashboardRoutes, type DashboardDeps } from './routes.js';
export { dashboardPageRoutes } from './pages.js';
