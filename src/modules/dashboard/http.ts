/**
 * What every dashboard route does the same way: who is acting, the dates a
 * filter may name, the audit line after a change, and the Idempotency-Key of
 * a refund. (A page's cursor is lib/paging.ts's withNextCursor; a service's
 * outcome becomes the response through http/respond.ts's sendOutcome.)
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.js';
import { requestLanguage } from '../../http/language.js';
import { validationFailure, type DomainError } from '../../lib/domain-error.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import type { AuditAction, AuditEntry, AuditRecorder } from '../audit/entry.js';
import { claimDeferredKey, sentKey, type IdempotencyService } from '../idempotency/index.js';
import type { Actor } from '../users/roles.js';

/** The person acting: the guard (a route's preHandler) set it, or the route would not run. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new Error('a dashboard route ran without its guard');
  return request.actor;
}

/**
 * The dates a filter may name. Beyond them a date is a typo (year 0202,
 * 20266), and the São Paulo day arithmetic and PostgreSQL's timestamps would
 * fail on some of them (year 10000): answered 400, naming the field, never a
 * 500 or an export cut short.
 */
export const FIRST_DATE = '2000-01-01';
export const LAST_DATE = '2100-12-31';

/** VALIDATION_ERROR for each of `from` and `to` (São Paulo dates, YYYY-MM-DD as the schema checked) outside FIRST_DATE…LAST_DATE. */
export function periodFailure(period: { from?: string | undefined; to?: string | undefined }): DomainError | undefined {
  const outside = (['from', 'to'] as const).filter((field) => {
    const date = period[field];
    return date !== undefined && (date < FIRST_DATE || date > LAST_DATE);
  });
  return outside.length === 0 ? undefined : validationFailure(outside.map((field) => ({ field, message: PROBLEMS.dateBetween({ first: FIRST_DATE, last: LAST_DATE }) })));
}

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
