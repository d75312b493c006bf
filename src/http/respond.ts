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
import { viewJson } from '../lib/view-json.js';

/**
 * What respond() reads of a request's claimed Idempotency-Key: the response
 * stored with the work, and the release of a key whose request failed. The
 * idempotency module's hook claims keys and sets it (widening it to the
 * recorder services store their outcome with); src/http knows no more of it.
 */
export interface ClaimedKey {
  readonly status: number | undefined;
  readonly body: string | undefined;
  release(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The claimed Idempotency-Key of a request on a route that honours one. */
    idempotency: ClaimedKey | undefined;
  }
  interface FastifyContextConfig {
    /** Whether the route honours Idempotency-Key, and whether it demands one. */
    idempotency?: 'optional' | 'required';
  }
}

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
    // The stored bytes, an error in this request's language (see the idempotency module's http.ts).
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
