/** Persists EXPIRED on intents past their lifetime (reads already show them expired). */
import type { Step, StepDeps } from './step.js';

export const expireIntents = ({ services }: StepDeps): Step => ({
  name: 'expire-intents',
  everyTicks: 1,
  run: () => services.intents.expireUnconfirmed(),
});
