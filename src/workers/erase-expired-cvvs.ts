/** Erases the CVV of card tokens whose intent expired unused, and old tokenize counters (the vault's schema; needs no key). */
import { sweepVault } from '../modules/vault/index.js';
import type { Step, StepDeps } from './step.js';

export const eraseExpiredCvvs = ({ db, clock }: StepDeps): Step => ({
  name: 'erase-expired-cvvs',
  everyTicks: 10,
  run: () => sweepVault(db, clock.now()),
});
