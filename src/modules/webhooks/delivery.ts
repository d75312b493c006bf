/**
 * Webhook delivery: at least once, never silently lost.
 *
 * A worker claims due deliveries with FOR UPDATE SKIP LOCKED and, in the same
 * commit, sets a lease (`locked_until`) longer than the request timeout, so
 * two workers never send the same attempt. It then POSTs the stored event
 * body, signed with both header sets (signature.ts), to the registration's
 * URL (the URL guard runs again at connect time; redirects are not followed;
 * 10 s timeout; any 2xx is success), and records the attempt and the next state guarded by the attempt count and the
 * lease it claimed. Outcomes are recorded in batches, one transaction of two
 * statements per batch (repo.settleAttempts), not one transaction of four
 * round trips per delivery: at a thousand deliveries a second the per-delivery
 * commits were the bottleneck. If the worker dies mid-delivery the lease runs
 * out and another worker (or the restarted one) sends it again, and the late
 * outcome of the first, if it ever comes, is dropped.
 *
 * Schedule: retries follow WEBHOOK_RETRY_SCHEDULE (config.ts), each delay
 * counted from the previous failure, then the delivery is FAILED; by default
 * production retries after 1 min, 5 min, 30 min, 2 h and 12 h and the sandbox
 * makes one attempt. Each delay gets up to a fifth more at random (jitter,
 * from the injected `random`, as the clock is injected), and a 429 or 503
 * with Retry-After puts the retry off as asked within the schedule's bounds
 * (rules.nextAttemptDelay).
 *
 * Disabling: the transaction that records a batch of outcomes also follows
 * each registration's run of failures (repo.trackFailures); one whose
 * deliveries have all failed for WEBHOOK_DISABLE_AFTER is disabled there,
 * its pending deliveries are HELD (left out of the claim) and the seller's
 * event log gets `webhook.disabled`, delivered to the other registrations
 * that selected it. POST /v2/webhooks/{id}/enable (service.ts) makes what
 * was held due again.
 */
import type { Db } from '../../db/database.js';
import type { Sealer } from '../../lib/aes-gcm.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { deliveredBody, eventsByIds, type Outbox } from '../events/index.js';
import * as repo from './repo.js';
import { nextAttemptDelay, outcomesByWebhook, retryAfterMs, stateAfterAttempt } from './rules.js';
import { DELIVERY_TIMEOUT_MS, MAX_ERROR_LENGTH, type Sender, type SendResult } from './sender.js';
import { signedHeaders } from './signature.js';

/** Longer than the request timeout, so a live worker always finishes inside its lease. */
export const DELIVERY_LEASE_MS = DELIVERY_TIMEOUT_MS + 5_000;

export interface DeliveryDeps {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  sealer: Sealer;
  /** Delays before each retry (config WEBHOOK_RETRY_SCHEDULE); empty: one attempt. */
  retryDelaysMs: readonly number[];
  sender: Sender;
  /** A number in [0, 1) per failed attempt, for the retry's jitter (Math.random; tests inject their own). */
  random: () => number;
  /** A registration whose deliveries have all failed this long is disabled (config WEBHOOK_DISABLE_AFTER). */
  disableAfterMs: number;
  /** Writes webhook.disabled in the transaction that disables (the events module's outbox). */
  outbox: Pick<Outbox, 'recordWebhookEvent'>;
}

interface Claimed extends repo.ClaimedDelivery {
  body: string;
  type: string;
  /** The lease set by the claim: the outcome is recorded only while it is still the delivery's. */
  leaseEnd: Date;
}

export interface DeliveryLoopOptions {
  /** Sends kept in flight at once. */
  window: number;
  /** Outcomes recorded together: the buffer is flushed when it holds this many... */
  flushSize: number;
  /** ...or this long after the first outcome joined it. */
  flushMs: number;
  /** Pause before claiming again after a claim that found fewer due deliveries than it asked for. */
  idleMs: number;
  /** Called with an error of a claim or a flush (database down); the loop goes on. */
  onError(err: unknown, what: 'claim' | 'record'): void;
}

export interface DeliveryLoop {
  /** Claims no more, waits for the sends in flight (each ends within the request timeout), records their outcomes. */
  stop(): Promise<void>;
}

export class DeliveryWorker {
  constructor(private readonly deps: DeliveryDeps) {}

  /**
   * One round: claims up to `limit` due deliveries, sends them concurrently and
   * records every outcome in one transaction; returns how many were sent.
   * Tests drive it on the manual clock; the worker runs `start()`.
   */
  async runOnce(limit = 32): Promise<number> {
    const claimed = await this.claim(limit);
    const outcomes = await Promise.all(claimed.map((d) => this.send(d)));
    await this.record(outcomes);
    return claimed.length;
  }

  /**
   * The worker's delivery loop: a continuous window of up to `window` sends in
   * flight instead of rounds behind a barrier, so one slow receiver (up to the
   * 10 s timeout) holds back only its own slot. Each finished send joins a
   * buffer of outcomes recorded in one transaction once it holds `flushSize`
   * or `flushMs` after its first entry; more deliveries are claimed as soon as
   * a quarter of the window is free (claims of a handful of rows would cost a
   * commit each), or at once when nothing is in flight. Every send starts
   * right after its claim, so it ends within DELIVERY_TIMEOUT_MS of it and its
   * outcome is flushed within the 5 s left of the lease (DELIVERY_LEASE_MS); a
   * flush that comes later still is harmless: the lease guard of
   * repo.settleAttempts drops it if another worker re-claimed the delivery.
   */
  start(opts: DeliveryLoopOptions): DeliveryLoop {
    let stopped = false;
    let inFlight = 0;
    const sends = new Set<Promise<void>>();
    let pending: Outcome[] = [];
    let flushTimer: NodeJS.Timeout | undefined;
    let flushing: Promise<void> = Promise.resolve();
    /** Wakes the claim loop (a slot freed, or stop). */
    let wake: (() => void) | undefined;
    const nap = (ms: number | undefined) =>
      new Promise<void>((resolve) => {
        const timer = ms === undefined ? undefined : setTimeout(done, ms);
        function done() {
          if (timer) clearTimeout(timer);
          wake = undefined;
          resolve();
        }
        wake = done;
      });

    const flush = (): Promise<void> => {
      if (flushTimer) clearTimeout(flushTimer);
      flushTimer = undefined;
      // One flush at a time: the next waits for the one under way, then takes everything buffered.
      flushing = flushing.then(async () => {
        const batch = pending;
        pending = [];
        if (batch.length === 0) return;
        try {
          await this.record(batch);
        } catch (err) {
          opts.onError(err, 'record');
          // Kept for the next flush: the guards make a late record harmless, and until it lands the
          // lease keeps the delivery from others; if the lease runs out first it is sent again.
          pending = batch.concat(pending);
          if (!stopped) schedule(opts.idleMs);
        }
      });
      return flushing;
    };
    const schedule = (ms: number) => {
      if (!flushTimer) flushTimer = setTimeout(() => void flush(), ms);
    };
    const finished = (outcome: Outcome) => {
      inFlight--;
      pending.push(outcome);
      if (pending.length >= opts.flushSize) void flush();
      else schedule(opts.flushMs);
      wake?.();
    };

    const claimLoop = async () => {
      const minClaim = Math.max(1, Math.floor(opts.window / 4));
      while (!stopped) {
        const room = opts.window - inFlight;
        if (room < minClaim && inFlight > 0) {
          await nap(undefined); // until a send finishes or stop
          continue;
        }
        let claimed: Claimed[];
        try {
          claimed = await this.claim(room);
        } catch (err) {
          opts.onError(err, 'claim');
          await nap(opts.idleMs);
          continue;
        }
        for (const d of claimed) {
          inFlight++;
          const p: Promise<void> = this.send(d).then(finished).finally(() => sends.delete(p));
          sends.add(p);
        }
        if (claimed.length < room && !stopped) await nap(opts.idleMs);
      }
    };
    const looping = claimLoop();

    return {
      async stop() {
        stopped = true;
        wake?.();
        await looping;
        await Promise.all([...sends]);
        await flush();
      },
    };
  }

  /** Claims due deliveries under a lease, with the stored body of their events, in one commit. */
  private async claim(limit: number): Promise<Claimed[]> {
    const now = this.deps.clock.now();
    const leaseEnd = new Date(now.getTime() + DELIVERY_LEASE_MS);
    const { claimed, events } = await this.deps.db.transaction().execute(async (trx) => {
      const claimed = await repo.claimDue(trx, now, leaseEnd, limit);
      return { claimed, events: claimed.length === 0 ? [] : await eventsByIds(trx, [...new Set(claimed.map((d) => d.event_id))]) };
    });
    // Once per event and after the commit: the text delivered (the Pix QR image drawn back in: events/rules.ts), the same on every attempt.
    const delivered = new Map(events.map((e) => [e.id, { body: deliveredBody(e.body), type: e.type }]));
    return claimed.map((d) => ({ ...d, ...delivered.get(d.event_id)!, leaseEnd })); // a delivery's event exists: same commit (outbox), never deleted
  }

  /** Sends one claimed delivery; never throws (a failed request is an outcome). */
  private async send(d: Claimed): Promise<Outcome> {
    const { clock, sealer, sender, newId, retryDelaysMs, random } = this.deps;
    const attempt = d.attempts + 1;
    const sentAt = clock.now();
    const timestamp = Math.floor(sentAt.getTime() / 1000);
    const started = performance.now();
    let result: SendResult;
    try {
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'svc-webhooks/1',
        ...signedHeaders(sealer.open(d.secret_sealed), d.event_id, d.type, timestamp, d.body),
      };
      result = await sender.send(d.url, headers, d.body);
    } catch (err) {
      // A sender that throws (httpSender never does) still leaves an outcome, so the slot is freed.
      result = { error: String((err as Error).message ?? err).slice(0, MAX_ERROR_LENGTH) };
    }
    const durationMs = Math.round(performance.now() - started);
    const succeeded = 'statusCode' in result && result.statusCode >= 200 && result.statusCode < 300;
    const finishedAt = clock.now();
    const delay = succeeded
      ? undefined
      : nextAttemptDelay({
          retryDelaysMs,
          attempt,
          random: random(),
          retryAfterMs: 'statusCode' in result ? retryAfterMs(result.statusCode, result.retryAfter, finishedAt) : undefined,
        });
    return {
      deliveryId: d.id,
      claimedAttempts: d.attempts,
      leaseEnd: d.leaseEnd,
      next: { state: stateAfterAttempt(succeeded, delay), nextAttemptAt: new Date(finishedAt.getTime() + (delay ?? 0)), at: finishedAt },
      attempt: {
        id: newId('att'),
        company_id: d.company_id,
        delivery_id: d.id,
        webhook_id: d.webhook_id,
        event_id: d.event_id,
        attempt,
        attempted_at: sentAt,
        status_code: 'statusCode' in result ? result.statusCode : null,
        error: 'error' in result ? result.error : null,
        duration_ms: durationMs,
        succeeded,
      },
    };
  }

  /**
   * Records outcomes in one transaction (repo.settleAttempts: two statements
   * for the whole batch, and one more following the registrations' failures);
   * a registration that failed long enough is disabled in it.
   */
  private async record(outcomes: Outcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const { db, disableAfterMs, outbox } = this.deps;
    await db.transaction().execute(async (trx) => {
      const recorded = await repo.settleAttempts(trx, outcomes);
      const disabled = await repo.trackFailures(trx, outcomesByWebhook(outcomes.filter((o) => recorded.has(o.deliveryId))), disableAfterMs);
      if (disabled.length === 0) return;
      await repo.holdDeliveries(trx, disabled.map((w) => w.id), disabled[0]!.disabled_at!);
      for (const w of disabled) {
        const at = w.disabled_at!;
        const snapshot = { id: w.id, url: w.url, status: 'disabled' as const, ...(w.failing_since ? { failingSince: w.failing_since.toISOString() } : {}), disabledAt: at.toISOString() };
        await outbox.recordWebhookEvent(trx, at, 'webhook.disabled', w.company_id, snapshot);
      }
    });
  }
}

type Outcome = repo.AttemptOutcome;
