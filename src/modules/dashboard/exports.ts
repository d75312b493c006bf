/**
 * Sending a CSV export: its period checked, one export at a time per user,
 * then the headers and the stream. Everything that can refuse it answers
 * before the first byte: once the 200 has gone, a failure can only cut the
 * connection, which a browser shows as a broken download.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Redis } from 'ioredis';
import { sendError } from '../../http/error-handler.js';
import { DomainError } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import type { Language } from '../../lib/i18n/language.js';
import { saoPauloDate } from '../../lib/sao-paulo-date.js';
import { actorOf, periodFailure } from './http.js';
import { csvFileName, type CsvFormat } from './rules.js';

/** What a refused export tells the client to wait: an export of a few thousand rows takes a second or two. */
const RETRY_AFTER_SECONDS = 5;

/** How long a shared slot lives without its process renewing it (a process that died frees its users' slots by then). */
const SHARED_SLOT_MS = 60_000;
const RENEW_MS = 20_000;
/** Deletes the slot only if it is still this export's (it may have expired and been taken by another). */
const RELEASE_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/**
 * The users with an export running. An export holds a database connection's
 * worth of work for as long as the client reads, so a user (or a page
 * reloaded in a loop) runs one at a time; a second one gets 429 RATE_LIMITED
 * until the first has ended or its client has gone. Kept in this process and,
 * with REDIS_URL, in Redis too (a key per user, renewed while the export runs,
 * expiring a minute after its process stops renewing it), so every process
 * shares it; if Redis is unreachable the process's own count still holds
 * (fail open, as the rate limits do).
 */
export class ExportSlots {
  private readonly running = new Set<string>();

  constructor(private readonly redis?: Redis) {}

  /** Takes the user's slot; answers its release, or undefined when the user already has one. */
  async take(userId: string): Promise<(() => void) | undefined> {
    if (this.running.has(userId)) return undefined;
    this.running.add(userId);
    const shared = this.redis ? await this.takeShared(this.redis, userId) : undefined;
    if (shared === 'taken') {
      this.running.delete(userId);
      return undefined;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running.delete(userId);
      shared?.();
    };
  }

  private async takeShared(redis: Redis, userId: string): Promise<'taken' | (() => void) | undefined> {
    const key = `svc-export:${userId}`;
    const token = randomUUID();
    try {
      if ((await redis.set(key, token, 'PX', SHARED_SLOT_MS, 'NX')) === null) return 'taken';
    } catch {
      return undefined;
    }
    const renew = setInterval(() => redis.pexpire(key, SHARED_SLOT_MS).catch(() => undefined), RENEW_MS).unref();
    return () => {
      clearInterval(renew);
      redis.eval(RELEASE_SCRIPT, 1, key, token).catch(() => undefined);
    };
  }
}

/** The app's export slots: shared through Redis when `redisUrl` is set (its own connection, closed with the app). */
export function exportSlots(app: FastifyInstance, redisUrl: string | undefined): ExportSlots {
  if (!redisUrl) return new ExportSlots();
  const redis = new Redis(redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on('error', (err: Error) => app.log.warn({ err: err.message }, 'export slots store unreachable'));
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
  return new ExportSlots(redis);
}

export interface ExportRequest {
  what: 'transactions' | 'receivables';
  /** The São Paulo dates of the period the filters select, for the checks and the file's name. */
  period: { from?: string | undefined; to?: string | undefined };
  format: CsvFormat;
  language: Language;
  now: Date;
}

/** Sends the export `open` makes, or the refusal, before any byte of it. */
export async function sendExport(reply: FastifyReply, slots: ExportSlots, request: ExportRequest, open: () => Readable): Promise<FastifyReply> {
  const invalid = periodFailure(request.period);
  if (invalid) return sendError(reply, invalid);
  const release = await slots.take(actorOf(reply.request).userId);
  if (!release) return sendError(reply, new DomainError('RATE_LIMITED', ERRORS.RATE_LIMITED.exportRunning, undefined, RETRY_AFTER_SECONDS));
  let stream: Readable;
  try {
    stream = open();
  } catch (err) {
    release();
    throw err;
  }
  // 'end': every row was read (before the response's last byte is written, so a client's next export finds the slot free);
  // 'close': the stream was destroyed (the client went away, a query failed).
  stream.once('end', release).once('close', release);
  const language = request.format === 'rfc4180' ? 'en' : request.language;
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${csvFileName(request.what, request.period, saoPauloDate(request.now), language)}"`)
    .header('cache-control', 'no-store')
    .send(stream);
}
