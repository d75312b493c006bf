/**
 * The worker: two loops over the jobs of this folder, one file per job, each
 * a call into the module that owns the behaviour.
 *  - the delivery loop: deliver-webhooks, a continuous window of sends in flight (webhooks/delivery.ts);
 *  - the maintenance loop, one tick a second: expire-intents, process-provider-notifications,
 *    reconcile-provider-charges, cancel-overdue-transactions, recover-confirmations,
 *    tell-vault, follow-refunds, settle-receivables, purge-idempotency-keys, purge-audit-log, purge-dashboard-sessions.
 * The vault's sweep (sweep-vault.ts) is not the worker's: it runs in the
 * vault's process, whose database role is the one that may write the vault's
 * tables, on the same kind of loop (startStepLoop).
 * Every job claims rows with FOR UPDATE SKIP LOCKED (or is a single
 * idempotent statement), so any number of workers can run side by side.
 * A failing job (database down) is logged and retried on the next round.
 */
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { cancelOverdueTransactions } from './cancel-overdue-transactions.js';
import { startDeliveryLoop } from './deliver-webhooks.js';
import { expireIntents } from './expire-intents.js';
import { followRefunds } from './follow-refunds.js';
import { processProviderNotifications } from './process-provider-notifications.js';
import { purgeAuditLog } from './purge-audit-log.js';
import { purgeDashboardSessions } from './purge-dashboard-sessions.js';
import { purgeIdempotencyKeys } from './purge-idempotency-keys.js';
import { reconcileProviderCharges } from './reconcile-provider-charges.js';
import { recoverConfirmations } from './recover-confirmations.js';
import { settleReceivables } from './settle-receivables.js';
import { tellVault } from './tell-vault.js';
import type { Step, StepDeps } from './step.js';

export type { Step, StepDeps } from './step.js';

/** The maintenance loop's tick: the unit of every job's `everyTicks`. */
const MAINTENANCE_TICK_MS = 1_000;

export interface WorkerOptions extends StepDeps {
  log: FastifyBaseLogger;
  /** The maintenance tick; MAINTENANCE_TICK_MS unless given. */
  intervalMs?: number;
  /** Pause of the delivery loop when fewer deliveries were due than it had room for. */
  deliveryIdleMs?: number;
}

/** The maintenance jobs, in the order a tick runs them (tests drive them with a manual clock). */
export function workerSteps(deps: StepDeps): Step[] {
  return [
    expireIntents,
    // Payments the providers report are applied before overdue charges are canceled: a Pix paid in its last second is PAID.
    processProviderNotifications,
    reconcileProviderCharges,
    cancelOverdueTransactions,
    recoverConfirmations,
    // After the steps that close card intents (expire-intents needs no notice: tickets expire with their intent).
    tellVault,
    followRefunds,
    settleReceivables,
    purgeIdempotencyKeys,
    purgeAuditLog,
    purgeDashboardSessions,
  ].map((job) => job(deps));
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
 * Runs `round` again and again until stopped, waiting `pauseMs` between
 * rounds; a round never overlaps the previous one, and stop() waits for the
 * round under way.
 */
function repeat(round: () => Promise<void>, pauseMs: number): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();
  const loop = () => {
    if (stopped) return;
    current = round().then(() => {
      if (!stopped) timer = setTimeout(loop, pauseMs);
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

/** Runs `steps` on a loop of one tick per `intervalMs` (MAINTENANCE_TICK_MS unless given), each every its `everyTicks`. */
export function startStepLoop(steps: Step[], log: FastifyBaseLogger, intervalMs = MAINTENANCE_TICK_MS): { stop(): Promise<void> } {
  let tick = 0;
  return repeat(() => runSteps(steps, tick++, log), intervalMs);
}

export function startWorker(opts: WorkerOptions): { stop(): Promise<void> } {
  const maintenance = startStepLoop(workerSteps(opts), opts.log, opts.intervalMs);
  // stop() lets the sends in flight finish (each within the request timeout) and records their outcomes.
  const deliveries = startDeliveryLoop(opts, opts.log, opts.deliveryIdleMs);
  return {
    async stop() {
      await Promise.all([maintenance.stop(), deliveries.stop()]);
    },
  };
}
