/**
 * Tells the vault which card intents are over, until it acknowledges them
 * (payment-intents/vault-notices.ts): every tick, so that a canceled or
 * failed intent's ticket is refused and its cards erased within seconds, and
 * a vault that was unreachable learns what it missed once it is back.
 * Claims nothing: two workers may tell the vault of one intent, which it
 * records once.
 */
import type { Step, StepDeps } from './step.js';

export const tellVault = ({ services }: StepDeps): Step => ({
  name: 'tell-vault',
  everyTicks: 1,
  run: () => services.vaultNotices.tellClosed(),
});
