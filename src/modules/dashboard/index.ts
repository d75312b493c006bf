export { type DashboardDeps } from './deps.js';
export { dashboardRoutes } from './routes.js';
export { dashboardPageRoutes } from './pages.js';
