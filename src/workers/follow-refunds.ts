/**
 * Follows PENDING refunds: a Pix devolução until the PSP says DEVOLVIDO or
 * NAO_REALIZADO, and any refund whose answer never came (the process died
 * between the call and the record), resolved from the provider's record.
 */
import type { Step, StepDeps } from './step.js';

export const followRefunds = ({ services }: StepDeps): Step => ({
  name: 'follow-refunds',
  everyTicks: 5,
  run: () => services.refunds.followPending(),
});
