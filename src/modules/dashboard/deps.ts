/** What the dashboard's route groups share: where they live and what they take (routes.ts registers them). */
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Services } from '../../services.js';
import type { AuditRecorder } from '../audit/entry.js';
import type { DashboardGuard } from '../users/guard.js';

export { DASHBOARD_API } from '../users/guard.js';
import type { ExportSlots } from './exports.js';
import type { DashboardService } from './service.js';

export interface DashboardDeps {
  db: Db;
  clock: Clock;
  services: Services;
  config: Config;
  guard: DashboardGuard;
  audit: AuditRecorder;
}

/** What each route group takes: the dependencies, the dashboard's own service and its exports' slots. */
export type RouteDeps = DashboardDeps & { dashboard: DashboardService; exports: ExportSlots };
