/**
 * The Idempotency-Key header on routes that honour it: claims the key before
 * the handler runs (service.ts keeps the rows, rules.ts the rules), answers
 * a replay with the stored bytes and `Idempotent-Replayed: true`, and hands
 * the handler's service the scope that stores its outcome.
 *
 * An error response is stored in the language of the request that made it
 * (Accept-Language), and a replay sends those bytes unchanged: a retry gets
 * exactly the first answer, in the first request's language, without
 * Content-Language.
 *
 * A route configured `claimInHandler` gets the key unclaimed instead
 * (`request.unclaimedKey`): its handler may write the key with the statements
 * that do its work (DONE in the only one, or STARTED in the first and DONE in
 * the last), and calls `claimDeferredKey` (the hook's claim, at that point)
 * when it cannot.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.js';
import { requestLanguage } from '../../http/language.js';
import { successStatus } from '../../http/respond.js';
import { isDomainError, validationError, type Outcome } from '../../lib/domain-error.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import { requestFingerprint } from './rules.js';
import type { Claim, IdempotencyService, ResponseRecorder, UnclaimedKey } from './service.js';

declare module '../../http/respond.js' {
  /** The claimed key a request carries is also where its service stores the outcome (IdempotencyScope is both). */
  interface ClaimedKey {
    readonly key: ResponseRecorder['key'];
    save: ResponseRecorder['save'];
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The key of a `claimInHandler` route, until its handler claims it. */
    unclaimedKey: UnclaimedKey | undefined;
  }
  interface FastifyContextConfig {
    /** The handler claims the key itself, or stores its response in the statement doing its work (see above). */
    claimInHandler?: boolean;
  }
}

export function installIdempotency(app: FastifyInstance, idempotency: IdempotencyService): void {
  app.decorateRequest('idempotency', undefined);
  app.decorateRequest('unclaimedKey', undefined);
  app.addHook('preHandler', async (request, reply) => {
    const mode = request.routeOptions.config?.idempotency;
    if (!mode || !request.auth) return;
    const sent = sentKey(request, mode === 'required');
    if (!sent) return;
    const unclaimed = idempotency.unclaimed(request.auth.companyId, sent.key, sent.print, successStatus(request), requestLanguage(request));
    if (request.routeOptions.config.claimInHandler) {
      request.unclaimedKey = unclaimed;
      return;
    }
    if (apply(request, reply, await unclaimed.claim())) return reply;
  });
}

/**
 * The request's Idempotency-Key, checked (1 to 255 characters), with the
 * fingerprint of what it is sent with; undefined when absent and not required.
 */
export function sentKey(request: FastifyRequest, required: boolean): { key: string; print: string } | undefined {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) {
    if (required) throw new AppError(validationError('Idempotency-Key', PROBLEMS.requiredOnRoute));
    return undefined;
  }
  const key = Array.isArray(raw) ? raw[0]! : raw;
  if (key.length < 1 || key.length > 255) throw new AppError(validationError('Idempotency-Key', PROBLEMS.idempotencyKeyLength));
  return { key, print: requestFingerprint(request.method, request.routeOptions.url ?? request.url, request.params, request.body) };
}

/**
 * Claims the key a `claimInHandler` route left unclaimed, as the hook does
 * elsewhere: true when a replay was sent (the handler answers nothing more);
 * a key in use or reused throws the contract's error.
 */
export async function claimDeferredKey(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const unclaimed = request.unclaimedKey;
  if (!unclaimed) return false;
  request.unclaimedKey = undefined;
  return apply(request, reply, await unclaimed.claim());
}

/** A claim's answer: a replay is sent (true), an error thrown, a new claim's scope handed to the handler. */
function apply(request: FastifyRequest, reply: FastifyReply, claim: Outcome<Claim>): boolean {
  if (isDomainError(claim)) throw new AppError(claim);
  if (claim.kind === 'replay') {
    reply.code(claim.status).header('Idempotent-Replayed', 'true').type('application/json; charset=utf-8').send(claim.body);
    return true;
  }
  request.idempotency = claim.scope;
  return false;
}
