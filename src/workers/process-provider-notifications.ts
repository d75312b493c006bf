/** Verifies the payments providers notified (each with the provider itself) and applies the confirmed ones. */
import type { Step, StepDeps } from './step.js';

export const processProviderNotifications = ({ services }: StepDeps): Step => ({
  name: 'process-provider-notifications',
  everyTicks: 1,
  run: () => services.incomingPayments.processNotifications(),
});
