/**
 * Sends due webhook deliveries. It has its own loop (worker.ts), faster than
 * the maintenance tick: a full batch means more are waiting, so the next
 * round starts at once; otherwise it pauses `idleMs`.
 */
import type { Step, StepDeps } from './step.js';

/** Deliveries claimed and sent concurrently per round. */
const DELIVERY_BATCH = 32;
/** Pause of the delivery loop after a round that was not full. */
const DELIVERY_IDLE_MS = 100;

export const deliverWebhooks = ({ services }: Pick<StepDeps, 'services'>): Step => ({
  name: 'deliver-webhooks',
  everyTicks: 1,
  run: () => services.deliveries.runOnce(DELIVERY_BATCH),
});

/** How long the delivery loop waits after a round that sent `sent`. */
export const pauseAfterDeliveries = (sent: number, idleMs = DELIVERY_IDLE_MS): number => (sent === DELIVERY_BATCH ? 0 : idleMs);
