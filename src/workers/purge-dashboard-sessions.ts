/** Deletes the dashboard's dead rows: expired sessions, old sign-in failures and lockouts, invitations long expired. */
import type { Step, StepDeps } from './step.js';

export const purgeDashboardSessions = ({ services }: StepDeps): Step => ({
  name: 'purge-dashboard-sessions',
  everyTicks: 60,
  run: () => services.users.purge(),
});
