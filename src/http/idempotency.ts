/**
 * Idempotency-Key. Scope: company + key (a deployment is one environment).
 *
 * A first request inserts a STARTED row (committed at once, so a concurrent
 * twin sees it and gets 409 IDEMPOTENCY_KEY_IN_USE). The route's service then
 * stores the response through `save()` in the SAME database transaction as
 * its effect: either both the effect and the stored response exist, or
 * neither does. A retry with the same route and body gets the stored status
 * and body byte for byte with `Idempotent-Replayed: true`; with another route
 * or body, 422 IDEMPOTENCY_KEY_REUSED. A request that fails before acting
 * deletes its row, so a corrected retry with the same key works.
 *
 * Stored bodies are sealed (AES-256-GCM): they may hold a webhook secret,
 * shown only in its registration response, and buyers' personal data.
 *
 * A STARTED row carries a lease. If its process died, the lease runs out and a
 * retry takes the row over; operations with several phases (confirm) resume
 * the work recorded under the key instead of starting it again.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/types.js';
import type { Sealer } from '../lib/aes-gcm.js';
import type { Clock } from '../lib/clock.js';
import { canonicalJson } from '../lib/canonical-json.js';
import { AppError, validationError } from './errors.js';

export const IDEMPOTENCY_LEASE_MS = 60_000;
export const IDEMPOTENCY_RETENTION_MS = 24 * 3_600_000;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: IdempotencyScope | undefined;
  }
  interface FastifyContextConfig {
    /** Whether the route honours Idempotency-Key, and whether it demands one. */
    idempotency?: 'optional' | 'required';
  }
}

/** The exact bytes of a response body: an error's spec body, or the JSON of a view. */
function serialise(payload: unknown): string {
  return payload instanceof AppError ? JSON.stringify(payload.toBody()) : JSON.stringify(payload);
}

/** Where a service records the response of an idempotent request, inside its own transaction. */
export interface ResponseRecorder {
  readonly key: string;
  save(trx: Transaction<Database>, status: number, payload: unknown): Promise<void>;
}

/**
 * Records a response under a key still STARTED. A live request whose key is
 * no longer STARTED lost its lease to a retry, which is an error; when the
 * worker finishes the request of a process that died (`recovering`), a key
 * already gone or finished is simply left alone.
 */
export class IdempotencyScope implements ResponseRecorder {
  status: number | undefined;
  body: string | undefined;

  constructor(
    readonly companyId: string,
    readonly key: string,
    private readonly sealer: Sealer,
    private readonly recovering = false,
  ) {}

  async save(trx: Transaction<Database>, status: number, payload: unknown): Promise<void> {
    const body = serialise(payload);
    const updated = await trx
      .updateTable('idempotency_keys')
      .set({ state: 'DONE', response_status: status, response_body: this.sealer.seal(body) })
      .where('company_id', '=', this.companyId)
      .where('key', '=', this.key)
      .where('state', '=', 'STARTED')
      .returning('key')
      .executeTakeFirst();
    if (!updated && !this.recovering) throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'This Idempotency-Key was taken over by a retry');
    this.status = status;
    this.body = body;
  }
}

/** What makes two requests "the same" for a key: method, route pattern, path parameters, canonical body. */
export function requestFingerprint(method: string, routeUrl: string, params: unknown, body: unknown): string {
  const text = `${method} ${routeUrl}\n${canonicalJson(params ?? {})}\n${canonicalJson(body ?? null)}`;
  return createHash('sha256').update(text).digest('hex');
}

function fingerprint(request: FastifyRequest): string {
  return requestFingerprint(request.method, request.routeOptions.url ?? request.url, request.params, request.body);
}

type Begin = { kind: 'new' } | { kind: 'replay'; status: number; body: string };

async function begin(db: Db, clock: Clock, sealer: Sealer, companyId: string, key: string, print: string): Promise<Begin> {
  const now = clock.now();
  const lease = new Date(now.getTime() + IDEMPOTENCY_LEASE_MS);
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({ company_id: companyId, key, fingerprint: print, state: 'STARTED', locked_until: lease, created_at: now })
      .onConflict((oc) => oc.columns(['company_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (inserted) return { kind: 'new' };

    const row = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) continue; // released between our insert and select: try again
    if (now.getTime() - row.created_at.getTime() >= IDEMPOTENCY_RETENTION_MS) {
      await db.deleteFrom('idempotency_keys').where('company_id', '=', companyId).where('key', '=', key).where('created_at', '=', row.created_at).execute();
      continue;
    }
    if (row.fingerprint !== print) {
      throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with another request; use a new key', [
        { field: 'Idempotency-Key', message: 'was used with another route or body' },
      ]);
    }
    if (row.state === 'DONE') return { kind: 'replay', status: row.response_status!, body: sealer.open(row.response_body!) };
    if (row.locked_until.getTime() > now.getTime()) {
      throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still running; retry shortly');
    }
    // The first request died holding the key: take it over with a compare-and-set on the lease.
    const taken = await db
      .updateTable('idempotency_keys')
      .set({ locked_until: lease })
      .where('company_id', '=', companyId)
      .where('key', '=', key)
      .where('state', '=', 'STARTED')
      .where('locked_until', '=', row.locked_until)
      .returning('key')
      .executeTakeFirst();
    if (taken) return { kind: 'new' };
  }
  throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still running; retry shortly');
}

export function installIdempotency(app: FastifyInstance, db: Db, clock: Clock, sealer: Sealer): void {
  app.decorateRequest('idempotency', undefined);
  app.addHook('preHandler', async (request, reply) => {
    const mode = request.routeOptions.config?.idempotency;
    if (!mode || !request.auth) return;
    const raw = request.headers['idempotency-key'];
    if (raw === undefined) {
      if (mode === 'required') throw validationError('Idempotency-Key', 'is required on this route');
      return;
    }
    const key = Array.isArray(raw) ? raw[0]! : raw;
    if (key.length < 1 || key.length > 255) throw validationError('Idempotency-Key', 'must be 1 to 255 characters');
    const companyId = request.auth.companyId;
    const started = await begin(db, clock, sealer, companyId, key, fingerprint(request));
    if (started.kind === 'replay') {
      return reply
        .code(started.status)
        .header('Idempotent-Replayed', 'true')
        .type('application/json; charset=utf-8')
        .send(started.body);
    }
    request.idempotency = new IdempotencyScope(companyId, key, sealer);
  });
}

/** Undoes the claim of a request that failed without storing a response, so the key can be retried. */
export async function releaseIdempotency(db: Db, request: FastifyRequest): Promise<void> {
  const scope = request.idempotency;
  if (!scope || scope.body !== undefined) return;
  await db
    .deleteFrom('idempotency_keys')
    .where('company_id', '=', scope.companyId)
    .where('key', '=', scope.key)
    .where('state', '=', 'STARTED')
    .execute();
}

/** Sends the response; when an idempotent request stored one, exactly those bytes. */
export function respond(request: FastifyRequest, reply: FastifyReply, status: number, payload: unknown): FastifyReply {
  const scope = request.idempotency;
  if (scope?.body !== undefined) {
    return reply.code(scope.status!).type('application/json; charset=utf-8').send(scope.body);
  }
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(payload));
}

/** Deletes keys past their 24-hour retention. */
export async function purgeIdempotencyKeys(db: Db, clock: Clock): Promise<number> {
  const cutoff = new Date(clock.now().getTime() - IDEMPOTENCY_RETENTION_MS);
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

