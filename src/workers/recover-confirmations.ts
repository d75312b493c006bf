/**
 * Finishes confirmations whose process died between phases, from the
 * acquirer's record. Every 5 ticks: a confirmation is only stuck once the
 * idempotency lease has run out, so there is no hurry.
 */
import type { Step, StepDeps } from './step.js';

export const recoverConfirmations = ({ services }: StepDeps): Step => ({
  name: 'recover-confirmations',
  everyTicks: 5,
  run: () => services.intents.recoverStuckConfirmations(),
});
