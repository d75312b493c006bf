/** Cancels unpaid Pix / boleto transactions whose payment window closed (event transaction.canceled). */
import type { Step, StepDeps } from './step.js';

export const cancelOverdueTransactions = ({ services }: StepDeps): Step => ({
  name: 'cancel-overdue-transactions',
  everyTicks: 1,
  run: () => services.transactions.cancelOverdue(),
});
