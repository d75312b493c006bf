/**
 * Sends due webhook deliveries. It has its own loop, faster than the
 * maintenance tick: DeliveryWorker.start (webhooks/delivery.ts) keeps a window
 * of sends in flight, claims more as slots free up, and records outcomes in
 * batches; when a claim finds fewer due deliveries than free slots it pauses
 * `idleMs` before looking again (the lag an idle worker adds).
 */
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import type { DeliveryLoop } from '../modules/webhooks/index.js';
import type { StepDeps } from './step.js';

/**
 * Sends in flight at once per worker. Measured with scripts/bench.mjs (local
 * receiver answering at once): 256 drains a backlog faster than 128 while a
 * claim of 64+ rows still takes a few ms; a slow receiver holds one slot only.
 */
export const DELIVERY_WINDOW = 256;
/** Outcomes recorded per transaction at most... */
export const DELIVERY_FLUSH_SIZE = 128;
/** ...and how long a finished send waits for others to share its transaction. */
export const DELIVERY_FLUSH_MS = 20;
/** Pause of the delivery loop after a claim that found fewer due deliveries than free slots. */
const DELIVERY_IDLE_MS = 100;

export function startDeliveryLoop({ services }: Pick<StepDeps, 'services'>, log: FastifyBaseLogger, idleMs = DELIVERY_IDLE_MS): DeliveryLoop {
  return services.deliveries.start({
    window: DELIVERY_WINDOW,
    flushSize: DELIVERY_FLUSH_SIZE,
    flushMs: DELIVERY_FLUSH_MS,
    idleMs,
    onError(err, what) {
      if (isDatabaseUnavailable(err)) log.warn({ what }, 'database unreachable; webhook deliveries wait');
      else log.error({ err, what }, 'webhook delivery failed');
    },
  });
}
