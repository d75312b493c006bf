/** Deletes idempotency keys past their retention (IDEMPOTENCY_RETENTION_MS). */
import type { Step, StepDeps } from './step.js';

export const purgeIdempotencyKeys = ({ services }: StepDeps): Step => ({
  name: 'purge-idempotency-keys',
  everyTicks: 60,
  run: () => services.idempotency.purge(),
});
