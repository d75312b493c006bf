/**
 * Bounded load as a careful client sends it: each client creates a Pix intent
 * and confirms it, each call with its own Idempotency-Key, and on 503 waits a
 * little and sends the same call again with the same key. Every answer is
 * counted, and every 503 is checked against the contract (Retry-After, the
 * error body) as it arrives.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { idemKey } from '../../helpers/server.js';
import { pixIntent } from '../../helpers/fixtures.js';
import type { ApiNode } from './stack.js';

type Json = Record<string, unknown>;

export interface LoadStats {
  requests: number;
  byStatus: Map<number, number>;
  /** 503s missing Retry-After or the contract's body, described. */
  badUnavailable: string[];
  /** Anything other than 201, 503 or 409 IDEMPOTENCY_KEY_IN_USE (or a request that got no answer). */
  unexpected: string[];
  /** Intent id → transaction id of every confirm answered 201. */
  confirmed: Map<string, string>;
  /** Calls that still had no 201 when the load stopped. */
  unfinished: number;
  /** The longest a request waited for its answer, and when it was sent. */
  slowest: { ms: number; sentAt: number };
  /** Calls left after 409 IDEMPOTENCY_KEY_IN_USE (their first attempt was cut mid-request). */
  keyInUse: number;
}

function newStats(): LoadStats {
  return { requests: 0, byStatus: new Map(), badUnavailable: [], unexpected: [], confirmed: new Map(), unfinished: 0, keyInUse: 0, slowest: { ms: 0, sentAt: 0 } };
}

const REQUEST_TIMEOUT_MS = 30_000;
const RETRY_PAUSE_MS = 200;

/** Sends one call until it gets 201 (retrying 503 with the same key) or `running()` turns false; the 201's body, if any. */
async function untilCreated(node: ApiNode, pathname: string, body: Json | undefined, stats: LoadStats, running: () => boolean): Promise<Json | undefined> {
  const key = idemKey('fault');
  while (running()) {
    stats.requests++;
    let res: Response;
    const sentAt = Date.now();
    try {
      res = await node.api(pathname, { method: 'POST', headers: { 'idempotency-key': key }, ...(body ? { body } : {}), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch (err) {
      stats.unexpected.push(`${pathname}: no answer (${(err as Error).message})`);
      await sleep(RETRY_PAUSE_MS);
      return undefined;
    }
    const ms = Date.now() - sentAt;
    if (ms > stats.slowest.ms) stats.slowest = { ms, sentAt };
    stats.byStatus.set(res.status, (stats.byStatus.get(res.status) ?? 0) + 1);
    const text = await res.text();
    if (res.status === 201) return JSON.parse(text) as Json;
    if (res.status === 409 && text.includes('"IDEMPOTENCY_KEY_IN_USE"')) {
      stats.keyInUse++;
      return undefined;
    }
    if (res.status !== 503) {
      stats.unexpected.push(`${pathname}: ${res.status} ${text.slice(0, 300)}`);
      return undefined;
    }
    checkUnavailable(res, text, stats);
    await sleep(RETRY_PAUSE_MS);
  }
  stats.unfinished++;
  return undefined;
}

function checkUnavailable(res: Response, text: string, stats: LoadStats): void {
  const retryAfter = Number(res.headers.get('retry-after'));
  let body: Json = {};
  try {
    body = JSON.parse(text) as Json;
  } catch {
    // reported below
  }
  if (!(Number.isInteger(retryAfter) && retryAfter >= 1)) stats.badUnavailable.push(`Retry-After: ${res.headers.get('retry-after')}`);
  if (body.code !== 'SERVICE_UNAVAILABLE' || typeof body.message !== 'string') stats.badUnavailable.push(`body: ${text.slice(0, 200)}`);
  if (!res.headers.get('x-request-id')) stats.badUnavailable.push('no X-Request-Id');
}

/** One client: create then confirm, again and again, until `running()` turns false. */
async function payLoop(node: ApiNode, label: string, stats: LoadStats, running: () => boolean): Promise<void> {
  for (let i = 0; running(); i++) {
    const intent = await untilCreated(node, '/v2/payment-intents', pixIntent({ referenceId: `${label}-${i}`, amountCents: 1_000 + i }), stats, running);
    if (!intent) continue;
    const transaction = await untilCreated(node, `/v2/payment-intents/${String(intent.id)}/confirm`, undefined, stats, running);
    if (transaction) stats.confirmed.set(String(intent.id), String(transaction.id));
  }
}

export function count(stats: LoadStats, status: number): number {
  return stats.byStatus.get(status) ?? 0;
}

/** On a loaded machine the first confirms may take longer than the warm-up: one is waited for up to this. */
const WARM_UP_LIMIT_MS = 30_000;

export interface Load {
  stats: LoadStats;
  /** Waits `ms`, then until the load has confirmed a payment (at most WARM_UP_LIMIT_MS more); answers how many it confirmed. */
  warmUp(ms: number): Promise<number>;
  /** Ends every client and waits for them; safe to call again (after() calls it, so a failed assertion leaves no client running). */
  stop(): Promise<void>;
}

/** Starts one payLoop per client, each on its node, sharing one LoadStats. */
export function startLoad(clients: { node: ApiNode; label: string }[]): Load {
  const stats = newStats();
  let running = true;
  const loops = clients.map(({ node, label }) => payLoop(node, label, stats, () => running));
  return {
    stats,
    async warmUp(ms) {
      await sleep(ms);
      for (const started = Date.now(); stats.confirmed.size === 0 && Date.now() - started < WARM_UP_LIMIT_MS; ) await sleep(100);
      return stats.confirmed.size;
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}
