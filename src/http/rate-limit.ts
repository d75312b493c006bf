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

/**
 * A limit of `max` requests per minute per `key` of the request, for public
 * routes (no API key, so the global per-key limit skips them), in the same
 * store as the per-key limit. Returns a preHandler hook; several may guard
 * one route (per address and per resource), each with its own name.
 */
export function perMinuteLimit(
  app: FastifyInstance,
  name: string,
  max: number,
  key: (request: FastifyRequest) => string,
): (request: FastifyRequest) => Promise<void> {
  const limit = app.createRateLimit({ max, timeWindow: 60_000, keyGenerator: (request) => `${name}:${key(request)}`, allowList: () => false });
  return async (request) => {
    const outcome = await limit(request);
    if (outcome.isAllowed || !outcome.isExceeded) return;
    throw new AppError('RATE_LIMITED', ERRORS.RATE_LIMITED.perMinute({ max: outcome.max, seconds: outcome.ttlInSeconds }), undefined, Math.max(1, outcome.ttlInSeconds));
  };
}
