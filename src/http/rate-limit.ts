/**
 * Per-key rate limit on /v2 routes, with @fastify/rate-limit: a fixed window
 * of one second, `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`
 * on every response (IETF draft names) and 429 RATE_LIMITED with
 * `Retry-After` past the limit. Counters live in memory, or in Redis when
 * REDIS_URL is set so several processes share one limit per key. If Redis is
 * unreachable the limit is skipped (fail open) rather than failing payments.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { ERRORS } from '../lib/i18n/messages/errors.js';
import { AppError } from './errors.js';

export interface RateLimitOptions {
  perSecond: number;
  redisUrl: string | undefined;
}

export async function installRateLimit(app: FastifyInstance, opts: RateLimitOptions): Promise<void> {
  const redis = opts.redisUrl
    ? new Redis(opts.redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false })
    : undefined;
  if (redis) {
    redis.on('error', (err) => app.log.warn({ err: err.message }, 'rate-limit store unreachable'));
    app.addHook('onClose', async () => {
      redis.disconnect();
    });
  }
  await app.register(rateLimit, {
    global: true,
    max: opts.perSecond,
    timeWindow: 1_000,
    enableDraftSpec: true,
    skipOnError: true,
    nameSpace: 'svc-rate-',
    ...(redis ? { redis } : {}),
    // Only authenticated API routes are limited, per key; auth has run in onRequest already.
    allowList: (request) => !request.auth,
    keyGenerator: (request) => request.auth?.keyId ?? request.ip,
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new AppError('RATE_LIMITED', ERRORS.RATE_LIMITED.perSecond({ max: context.max, seconds }), undefined, seconds);
    },
  });
}

/** 429 RATE_LIMITED past a per-minute limit of `max`, to retry after `seconds`. */
function perMinuteRefusal(max: number, seconds: number): AppError {
  return new AppError('RATE_LIMITED', ERRORS.RATE_LIMITED.perMinute({ max, seconds }), undefined, Math.max(1, seconds));
}

/**
 * A count per minute of what `key` names in a request (an address, a link),
 * kept in the same store as the per-key limit (Redis when configured, shared
 * by every process), for what the global per-key limit does not cover. Each
 * counter has its own `name`, so several may count one request.
 */
interface PerMinuteCounter {
  /** Counts the request; answers the refusal once it is past `max` in its minute. */
  count(request: FastifyRequest): Promise<AppError | undefined>;
}

export function perMinuteCounter(app: FastifyInstance, name: string, max: number, key: (request: FastifyRequest) => string): PerMinuteCounter {
  const limit = app.createRateLimit({ max, timeWindow: 60_000, keyGenerator: (request) => `${name}:${key(request)}`, allowList: () => false });
  return {
    async count(request) {
      const outcome = await limit(request);
      return outcome.isAllowed || !outcome.isExceeded ? undefined : perMinuteRefusal(outcome.max, outcome.ttlInSeconds);
    },
  };
}

/**
 * A limit of `max` requests per minute per `key` of the request, for public
 * routes (no API key, so the global per-key limit skips them). Returns a hook
 * (onRequest or preHandler); several may guard one route (per address and
 * per resource), each with its own name.
 */
export function perMinuteLimit(
  app: FastifyInstance,
  name: string,
  max: number,
  key: (request: FastifyRequest) => string,
): (request: FastifyRequest) => Promise<void> {
  const counter = perMinuteCounter(app, name, max, key);
  return async (request) => {
    const refusal = await counter.count(request);
    if (refusal) throw refusal;
  };
}
