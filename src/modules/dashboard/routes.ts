/**
 * The dashboard's JSON API over the seller's data (docs/dashboard.md "The
 * seller's data"), under /dashboard/api. Every route declares the permission
 * it needs through the session guard (users/roles.ts) and is hidden from
 * /openapi.json: it is not the seller's API and may change with the pages.
 */
import type { FastifyInstance } from 'fastify';
import type { DashboardDeps, RouteDeps } from './deps.js';
import { developerRoutes } from './developer-routes.js';
import { exportSlots } from './exports.js';
import { moneyRoutes } from './money-routes.js';
import { salesRoutes } from './sales-routes.js';
import { DashboardService } from './service.js';

export function dashboardRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const all: RouteDeps = { ...deps, dashboard: new DashboardService(deps), exports: exportSlots(app, deps.config.redisUrl) };
  salesRoutes(app, all);
  moneyRoutes(app, all);
  developerRoutes(app, all);
}
