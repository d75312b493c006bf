/**
 * The worker: webhook deliveries (their own fast loop, below) and the
 * time-driven moves of the service (the maintenance loop):
 *  - persist EXPIRED on intents past their 5 minutes (reads already show it);
 *  - cancel unpaid Pix / boleto transactions whose payment window closed (event transaction.canceled);
 *  - mark receivables PAID once their expected date has come;
 *  - finish confirmations whose process died between phases (from the acquirer's record);
 *  - purge idempotency keys older than 24 hours;
 *  - erase the CVV of card tokens whose intent expired unused.
 * Every step claims rows with FOR UPDATE SKIP LOCKED (or is a single
 * idempotent statement), so any number of workers can run side by side.
 * A failing step (database down) is logged and retried on the next tick.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../app.js';
import type { Db } from '../db/database.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import type { Clock } from '../lib/clock.js';
import { sweepVault } from '../modules/vault/index.js';

export interface WorkerOptions {
  db: Db;
  clock: Clock;
  services: Services;
  log: FastifyBaseLogger;
  intervalMs?: number;
  /** Pause of the delivery loop when nothing was due. */
  deliveryIdleMs?: number;
}

export interface Step {
  name: string;
  everyTicks: number;
  run(): Promise<number>;
}

export function workerSteps({ db, clock, services }: Omit<WorkerOptions, 'log'>): Step[] {
  return [
    { name: 'expire-intents', everyTicks: 1, run: () => services.intents.expireUnconfirmed() },
    { name: 'cancel-overdue-transactions', everyTicks: 1, run: () => services.transactions.cancelOverdue() },
    { name: 'recover-confirmations', everyTicks: 5, run: () => services.intents.recoverStuckConfirmations() },
    { name: 'settle-receivables', everyTicks: 10, run: () => services.receivables.settleDue() },
    { name: 'purge-idempotency-keys', everyTicks: 60, run: () => services.idempotency.purge() },
    { name: 'erase-expired-cvvs', everyTicks: 10, run: () => sweepVault(db, clock.now()) },
  ];
}

/** Runs every step once; used by the loop and by tests that move a manual clock. */
export async function runSteps(steps: Step[], tick: number, log: FastifyBaseLogger): Promise<void> {
  for (const step of steps) {
    if (tick % step.everyTicks !== 0) continue;
    try {
      const count = await step.run();
      if (count > 0) log.info({ step: step.name, count }, 'worker step');
    } catch (err) {
      if (isDatabaseUnavailable(err)) log.warn({ step: step.name }, 'database unreachable; retrying next tick');
      else log.error({ err, step: step.name }, 'worker step failed');
    }
  }
}

/**
 * Runs `round` again and again until stopped, waiting `pauseAfter(result)` ms
 * between rounds; a round never overlaps the previous one, and stop() waits
 * for the round under way.
 */
function repeat<T>(round: () => Promise<T>, pauseAfter: (result: T) => number): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();
  const loop = () => {
    if (stopped) return;
    current = round().then((result) => {
      if (!stopped) timer = setTimeout(loop, pauseAfter(result));
    });
  };
  loop();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}

const DELIVERY_BATCH = 32;

export function startWorker(opts: WorkerOptions): { stop(): Promise<void> } {
  const steps = workerSteps(opts);
  let tick = 0;
  const maintenance = repeat(() => runSteps(steps, tick++, opts.log), () => opts.intervalMs ?? 1_000);
  // Deliveries poll faster, and go again at once while batches come back full.
  const deliveries = repeat(
    () =>
      opts.services.deliveries.runOnce(DELIVERY_BATCH).catch((err: unknown) => {
        if (isDatabaseUnavailable(err)) opts.log.warn('database unreachable; webhook deliveries wait');
        else opts.log.error({ err }, 'webhook delivery round failed');
        return 0;
      }),
    (sent) => (sent === DELIVERY_BATCH ? 0 : (opts.deliveryIdleMs ?? 100)),
  );
  return {
    async stop() {
      await Promise.all([maintenance.stop(), deliveries.stop()]);
    },
  };
}
