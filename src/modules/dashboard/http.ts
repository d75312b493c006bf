/**
 * What every dashboard route does the same way: who is acting, the name of
 * an export, the audit line after a change, and the Idempotency-Key of a
 * refund. (A page's cursor is lib/paging.ts's withNextCursor; a service's
 * outcome becomes the response through http/respond.ts's sendOutcome.)
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.js';
import { requestLanguage } from '../../http/language.js';
import { saoPauloDate } from '../../lib/sao-paulo-date.js';
import type { AuditAction, AuditEntry, AuditRecorder } from '../audit/entry.js';
import { claimDeferredKey, sentKey, type IdempotencyService } from '../idempotency/index.js';
import type { Actor } from '../users/roles.js';

/** The person acting: the guard (a route's preHandler) set it, or the route would not run. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new Error('a dashboard route ran without its guard');
  return request.actor;
}

/** The Content-Disposition of an export: what it holds and the São Paulo day it was made. */
export const csvAttachment = (what: string, at: Date): string => `attachment; filename="${what}-${saoPauloDate(at)}.csv"`;

/** Writes the audit line of a change the actor made (after it committed: the services own their transactions). */
export async function audited(
  audit: AuditRecorder,
  db: Db,
  request: FastifyRequest,
  action: AuditAction,
  target: string,
  details?: AuditEntry['details'],
): Promise<void> {
  const actor = actorOf(request);
  await audit.record(db, { companyId: actor.companyId, userId: actor.userId, email: actor.email, action, target, ip: request.ip, ...(details ? { details } : {}) });
}

/**
 * The Idempotency-Key of a dashboard request, claimed as the idempotency module's hook
 * claims the API's (the same rows, fingerprints and replays), in the
 * company's keys under `dashboard:` so a page's keys never meet an
 * integration's. True when a replay was sent: the handler does nothing more.
 * Required: the page sends one per confirmed form, so a double click or a
 * retry answers the first outcome and never does the work twice.
 */
export async function claimIdempotencyKey(idempotency: IdempotencyService, request: FastifyRequest, reply: FastifyReply, successStatus: number): Promise<boolean> {
  const { key, print } = sentKey(request, true)!;
  request.unclaimedKey = idempotency.unclaimed(actorOf(request).companyId, `dashboard:${key}`, print, successStatus, requestLanguage(request));
  return claimDeferredKey(request, reply);
}
