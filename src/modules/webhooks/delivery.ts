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
 * Schedule: production retries after 1 min, 5 min, 30 min, 2 h and 12 h
 * counted from the previous failure, then the delivery is FAILED; the sandbox
 * makes one attempt.
 */
import { request, type Dispatcher } from 'undici';
import type { Environment } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Sealer } from '../../lib/aes-gcm.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { signature } from './signature.js';
import { assertPublicTarget, createGuardedDispatcher } from './url-guard.js';

export const DELIVERY_TIMEOUT_MS = 10_000;
export const RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 43_200_000] as const;
/** Longer than the timeout, so a live worker always finishes inside its lease. */
export const DELIVERY_LEASE_MS = DELIVERY_TIMEOUT_MS + 5_000;
const MAX_ERROR_LENGTH = 200;

export type SendResult = { statusCode: number } | { error: string };

export interface Sender {
  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
}

/** The real sender: undici over the guarded dispatcher; the response body is read and discarded. */
export function httpSender(opts: { allowLoopback: boolean; timeoutMs?: number; dispatcher?: Dispatcher }): Sender {
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
  env: Environment;
  sender: Sender;
}

interface Claimed {
  id: string;
  company_id: string;
  webhook_id: string;
  event_id: string;
  attempts: number;
  url: string;
  secret_sealed: string;
  body: string;
  type: string;
}

/** When to try again after failed attempt number `attempt` (1-based), or undefined: give up. */
export function nextAttemptDelay(env: Environment, attempt: number): number | undefined {
  return env === 'production' ? RETRY_DELAYS_MS[attempt - 1] : undefined;
}

export class DeliveryWorker {
  constructor(private readonly deps: DeliveryDeps) {}

  /** Claims and sends up to `limit` due deliveries concurrently; returns how many were sent. */
  async runOnce(limit = 32): Promise<number> {
    const claimed = await this.claim(limit);
    await Promise.all(claimed.map((d) => this.deliver(d)));
    return claimed.length;
  }

  private async claim(limit: number): Promise<Claimed[]> {
    const now = this.deps.clock.now();
    const leaseEnd = new Date(now.getTime() + DELIVERY_LEASE_MS);
    return this.deps.db.transaction().execute(async (trx) => {
      const due = await trx
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('state', '=', 'PENDING')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
        .orderBy('next_attempt_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute();
      if (due.length === 0) return [];
      const ids = due.map((d) => d.id);
      await trx.updateTable('webhook_deliveries').set({ locked_until: leaseEnd }).where('id', 'in', ids).execute();
      return trx
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
        .innerJoin('events as e', 'e.id', 'd.event_id')
        .select(['d.id', 'd.company_id', 'd.webhook_id', 'd.event_id', 'd.attempts', 'w.url', 'w.secret_sealed', 'e.body', 'e.type'])
        .where('d.id', 'in', ids)
        .execute();
    });
  }

  private async deliver(d: Claimed): Promise<void> {
    const { clock, sealer, sender, db, newId, env } = this.deps;
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
    const delay = succeeded ? undefined : nextAttemptDelay(env, attempt);
    await db.transaction().execute(async (trx) => {
      // Guarded by the claimed attempt count: a delivery whose lease was lost is not recorded twice.
      const updated = await trx
        .updateTable('webhook_deliveries')
        .set({
          attempts: attempt,
          state: succeeded ? 'SUCCEEDED' : delay !== undefined ? 'PENDING' : 'FAILED',
          next_attempt_at: new Date(finishedAt.getTime() + (delay ?? 0)),
          locked_until: null,
          updated_at: finishedAt,
        })
        .where('id', '=', d.id)
        .where('state', '=', 'PENDING') // a registration deleted meanwhile stays CANCELED
        .where('attempts', '=', d.attempts)
        .returning('id')
        .executeTakeFirst();
      if (!updated) {
        // Canceled while in flight (registration deleted): it stays CANCELED, but the request
        // did reach the receiver, so the attempt still goes in the log.
        const canceled = await trx
          .updateTable('webhook_deliveries')
          .set({ attempts: attempt, locked_until: null, updated_at: finishedAt })
          .where('id', '=', d.id)
          .where('state', '=', 'CANCELED')
          .where('attempts', '=', d.attempts)
          .returning('id')
          .executeTakeFirst();
        if (!canceled) return;
      }
      await trx
        .insertInto('webhook_attempts')
        .values({
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
        })
        .execute();
    });
  }
}
