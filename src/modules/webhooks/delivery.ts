/**
 * Webhook delivery: at least once, never silently lost.
 *
 * A worker claims due deliveries with FOR UPDATE SKIP LOCKED and, in the same
 * commit, sets a lease (`locked_until`) longer than the request timeout, so
 * two workers never send the same attempt. It then POSTs the stored event
 * body, signed, to the registration's URL (the URL guard runs again at connect
 * time; redirects are not followed; 10 s timeout; any 2xx is success), and
 * records the attempt and the next state in one commit, guarded by the
 * attempt count it claimed. If the worker dies mid-delivery the lease runs
 * out and another worker (or the restarted one) sends it again.
 *
 * Schedule: retries follow WEBHOOK_RETRY_SCHEDULE (config.ts), each delay
 * counted from the previous failure, then the delivery is FAILED; by default
 * production retries after 1 min, 5 min, 30 min, 2 h and 12 h and the sandbox
 * makes one attempt.
 */
import { request, type Dispatcher } from 'undici';
import type { Db } from '../../db/database.js';
import type { Sealer } from '../../lib/aes-gcm.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { eventsByIds } from '../events/index.js';
import * as repo from './repo.js';
import { nextAttemptDelay, stateAfterAttempt } from './rules.js';
import { signature } from './signature.js';
import { assertPublicTarget, createGuardedDispatcher } from './url-guard.js';

const DELIVERY_TIMEOUT_MS = 10_000;
/** Longer than the timeout, so a live worker always finishes inside its lease. */
export const DELIVERY_LEASE_MS = DELIVERY_TIMEOUT_MS + 5_000;
const MAX_ERROR_LENGTH = 200;

export type SendResult = { statusCode: number } | { error: string };

export interface Sender {
  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
}

export interface HttpSenderOptions {
  allowLoopback: boolean;
  /** Gives up on a receiver after this long; DELIVERY_TIMEOUT_MS unless given. */
  timeoutMs?: number;
  dispatcher?: Dispatcher;
}

/** The real sender: undici over the guarded dispatcher; the response body is read and discarded. */
export function httpSender(opts: HttpSenderOptions): Sender {
  const timeoutMs = opts.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const dispatcher = opts.dispatcher ?? createGuardedDispatcher({ allowLoopback: opts.allowLoopback, timeoutMs });
  return {
    async send(url, headers, body) {
      try {
        assertPublicTarget(new URL(url), { allowLoopback: opts.allowLoopback });
        const response = await request(url, { method: 'POST', headers, body, dispatcher, signal: AbortSignal.timeout(timeoutMs) });
        await response.body.dump();
        return { statusCode: response.statusCode };
      } catch (err) {
        const e = err as Error & { code?: string };
        const reason = e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT'
          ? `timeout after ${timeoutMs} ms`
          : `${e.code ?? e.name}: ${e.message}`;
        return { error: reason.slice(0, MAX_ERROR_LENGTH) };
      }
    },
  };
}

export interface DeliveryDeps {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  sealer: Sealer;
  /** Delays before each retry (config WEBHOOK_RETRY_SCHEDULE); empty: one attempt. */
  retryDelaysMs: readonly number[];
  sender: Sender;
}

interface Claimed extends repo.ClaimedDelivery {
  body: string;
  type: string;
}

export class DeliveryWorker {
  constructor(private readonly deps: DeliveryDeps) {}

  /** Claims and sends up to `limit` due deliveries concurrently; returns how many were sent. */
  async runOnce(limit = 32): Promise<number> {
    const claimed = await this.claim(limit);
    await Promise.all(claimed.map((d) => this.deliver(d)));
    return claimed.length;
  }

  /** Claims due deliveries under a lease, with the stored body of their events, in one commit. */
  private async claim(limit: number): Promise<Claimed[]> {
    const now = this.deps.clock.now();
    const leaseEnd = new Date(now.getTime() + DELIVERY_LEASE_MS);
    return this.deps.db.transaction().execute(async (trx) => {
      const claimed = await repo.claimDue(trx, now, leaseEnd, limit);
      const events = new Map((await eventsByIds(trx, [...new Set(claimed.map((d) => d.event_id))])).map((e) => [e.id, e]));
      return claimed.map((d) => {
        const event = events.get(d.event_id)!; // a delivery's event exists: same commit (outbox), never deleted
        return { ...d, body: event.body, type: event.type };
      });
    });
  }

  private async deliver(d: Claimed): Promise<void> {
    const { clock, sealer, sender, db, newId, retryDelaysMs } = this.deps;
    const attempt = d.attempts + 1;
    const sentAt = clock.now();
    const timestamp = Math.floor(sentAt.getTime() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'svc-webhooks/1',
      'x-svc-event-id': d.event_id,
      'x-svc-event': d.type,
      'x-svc-timestamp': String(timestamp),
      'x-svc-signature': signature(sealer.open(d.secret_sealed), timestamp, d.body),
    };
    const started = performance.now();
    const result = await sender.send(d.url, headers, d.body);
    const durationMs = Math.round(performance.now() - started);
    const succeeded = 'statusCode' in result && result.statusCode >= 200 && result.statusCode < 300;
    const finishedAt = clock.now();
    const delay = succeeded ? undefined : nextAttemptDelay(retryDelaysMs, attempt);
    await db.transaction().execute(async (trx) => {
      // Guarded by the claimed attempt count: a delivery whose lease was lost is not recorded twice.
      const next = { state: stateAfterAttempt(succeeded, delay), nextAttemptAt: new Date(finishedAt.getTime() + (delay ?? 0)), at: finishedAt };
      if (!(await repo.settleAttempt(trx, d.id, d.attempts, next))) {
        // Canceled while in flight (registration deleted): it stays CANCELED, but the request
        // did reach the receiver, so the attempt still goes in the log.
        if (!(await repo.countCanceledAttempt(trx, d.id, d.attempts, finishedAt))) return;
      }
      await repo.insertAttempt(trx, {
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
      });
    });
  }
}
