/** Deletes audit log entries over a year old (the dashboard keeps a year), a bounded batch a round. */
import type { Step, StepDeps } from './step.js';

export const purgeAuditLog = ({ services }: StepDeps): Step => ({
  name: 'purge-audit-log',
  everyTicks: 60,
  run: () => services.audit.purge(),
});
