/**
 * Asks the real providers about unsettled charges and recent payments (a
 * lost notification still ends in PAID) and withdraws charges we canceled.
 * Every tick; each charge is asked about at most once per RECONCILE_INTERVAL_SECONDS.
 */
import type { Step, StepDeps } from './step.js';

export const reconcileProviderCharges = ({ services }: StepDeps): Step => ({
  name: 'reconcile-provider-charges',
  everyTicks: 1,
  run: () => services.incomingPayments.reconcile(),
});
