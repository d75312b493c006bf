/**
 * The end of every route handler: a service's outcome becomes the response.
 * The success status is declared once, as the route's only 2xx response
 * schema; an error gets its status from the error table. When an idempotent
 * request stored its response, exactly those bytes are sent; when it failed
 * without storing one, its key is released so a corrected retry can use it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isDomainError, type Outcome } from '../lib/domain-error.js';
import { sendError } from './error-handler.js';
import { languageHeaders } from './language.js';
import { viewJson } from '../modules/idempotency/index.js';

const declaredStatus = new WeakMap<object, number>();

/** The route's declared success status: the one 2xx key of its response schemas (read once per route). */
export function successStatus(request: FastifyRequest): number {
  const responses = request.routeOptions.schema?.response as Record<string, unknown> | undefined;
  if (!responses) return 200;
  let status = declaredStatus.get(responses);
  if (status === undefined) {
    status = Object.keys(responses).map(Number).find((code) => code >= 200 && code < 300) ?? 200;
    declaredStatus.set(responses, status);
  }
  return status;
}

export async function respond<T>(request: FastifyRequest, reply: FastifyReply, outcome: Outcome<T>): Promise<FastifyReply> {
  const scope = request.idempotency;
  if (scope?.body !== undefined) {
    // The stored bytes, an error in this request's language (see http/idempotency.ts).
    if (scope.status! >= 400) languageHeaders(reply);
    return reply.code(scope.status!).type('application/json; charset=utf-8').send(scope.body);
  }
  if (isDomainError(outcome)) {
    await scope?.release();
    return sendError(reply, outcome);
  }
  const status = successStatus(request);
  // Routes that may store their response send JSON.stringify's bytes, the same bytes a replay sends
  // (made once when the response was stored with the work, in the same statement).
  if (request.routeOptions.config?.idempotency) return reply.code(status).type('application/json; charset=utf-8').send(viewJson(outcome));
  return reply.code(status).send(outcome);
}

/**
 * A service's outcome as the response with an explicit success `status`, for routes that declare no
 * response schema (the dashboard's, hidden from the reference): the error body, an empty body for
 * `undefined`, or the value.
 */
export function sendOutcome<T>(reply: FastifyReply, outcome: Outcome<T>, status = 200): FastifyReply {
  if (isDomainError(outcome)) return sendError(reply, outcome);
  if (outcome === undefined) return reply.code(status).send();
  return reply.code(status).send(outcome);
}
