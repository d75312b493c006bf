/** Marks receivables PAID once their expected date (a São Paulo business day) has come. */
import type { Step, StepDeps } from './step.js';

export const settleReceivables = ({ services }: StepDeps): Step => ({
  name: 'settle-receivables',
  everyTicks: 10,
  run: () => services.receivables.settleDue(),
});
