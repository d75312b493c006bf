/**
 * One error handler renders every failure as the spec's body
 * `{code, message, details?}`. Expected failures are DomainErrors (thrown by
 * HTTP hooks as AppError, or carried by a rollback); Fastify's own
 * errors (malformed JSON, body too large, bad media type) are mapped to their
 * contract codes; a lost database is 503; anything else is a 500 with a
 * generic message, and its details go only to the log.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { rolledBackError } from '../db/transact.js';
import { DomainError, validationFailure } from '../lib/domain-error.js';
import { ERRORS } from '../lib/i18n/messages/errors.js';
import { PROBLEMS } from '../lib/i18n/messages/problems.js';
import { AppError, statusOf } from './errors.js';
import { languageHeaders } from './language.js';

/** How long a client waits before retrying while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** A body that is not JSON (Fastify's media type check, or a content type no parser takes). */
export const notJsonType = (): DomainError =>
  new DomainError('VALIDATION_ERROR', ERRORS.VALIDATION_ERROR.notJsonType, [{ field: 'Content-Type', message: PROBLEMS.notJsonType }]);

function fromFastify(err: FastifyError): DomainError | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new DomainError('VALIDATION_ERROR', ERRORS.VALIDATION_ERROR.notJson, [{ field: 'body', message: PROBLEMS.notJson }]);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new DomainError('PAYLOAD_TOO_LARGE', ERRORS.PAYLOAD_TOO_LARGE.body);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return notJsonType();
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new DomainError('VALIDATION_ERROR', ERRORS.VALIDATION_ERROR.contentLength, [{ field: 'Content-Length', message: PROBLEMS.contentLength }]);
    default:
      if (err.statusCode === 413) return new DomainError('PAYLOAD_TOO_LARGE', ERRORS.PAYLOAD_TOO_LARGE.body);
      if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 && err.statusCode !== 429) {
        return new DomainError('VALIDATION_ERROR', ERRORS.VALIDATION_ERROR.malformed);
      }
      return undefined;
  }
}

function toDomainError(err: unknown): DomainError | undefined {
  if (err instanceof AppError) return err.error;
  const rolledBack = rolledBackError(err);
  if (rolledBack) return rolledBack;
  if (isDatabaseUnavailable(err)) {
    return new DomainError('SERVICE_UNAVAILABLE', ERRORS.SERVICE_UNAVAILABLE.temporarily, undefined, DATABASE_RETRY_AFTER_SECONDS);
  }
  if (err && typeof err === 'object' && 'code' in err) return fromFastify(err as FastifyError);
  return undefined;
}

const everyLanguage = new WeakSet<FastifyRequest>();

/**
 * From now on this request's errors are sent with their texts in every
 * language (ErrorInEveryLanguage): its caller is the service itself, which
 * renders them for its own client (the vault's internal route, vault/client.ts).
 */
export function sendErrorsInEveryLanguage(request: FastifyRequest): void {
  everyLanguage.add(request);
}

/**
 * An error in the contract's body, its `message` and `details[].message` in
 * the request's Accept-Language (lib/i18n: English unless Portuguese is
 * preferred); `code` and `field` never change.
 */
export function sendError(reply: FastifyReply, error: DomainError): FastifyReply {
  if (error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
  if (error.code === 'UNAUTHORIZED') reply.header('WWW-Authenticate', 'Bearer');
  reply.code(statusOf(error)).type('application/json; charset=utf-8');
  if (everyLanguage.has(reply.request)) return reply.send(JSON.stringify(error.inEveryLanguage()));
  return reply.send(JSON.stringify(error.toBody(languageHeaders(reply))));
}

/**
 * Errors Fastify's router raises before any hook runs (a path that is not
 * valid percent-encoding, a path parameter over the router's maxParamLength).
 * Fastify answers those with its own body and no X-Request-Id unless the
 * instance is built with `frameworkErrors: frameworkErrors`; this renders them
 * as the contract's 400 VALIDATION_ERROR.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header('X-Request-Id', request.id);
  let error: DomainError;
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    error = validationFailure([{ field: 'id', message: PROBLEMS.maxLength({ limit: 64 }) }]);
  } else if (err.code === 'FST_ERR_BAD_URL') {
    error = new DomainError('VALIDATION_ERROR', ERRORS.VALIDATION_ERROR.percentEncoding, [{ field: 'path', message: PROBLEMS.url }]);
  } else {
    error = toDomainError(err) ?? new DomainError('INTERNAL_ERROR', ERRORS.INTERNAL_ERROR.unexpected);
  }
  return sendError(reply, error);
}

export function installErrorHandler(app: FastifyInstance, onError?: (request: FastifyRequest) => Promise<void>): void {
  app.setErrorHandler(async (err, request, reply) => {
    const cleanup = onError?.(request).catch((e: unknown) => request.log.warn({ err: e }, 'cleanup after error failed'));
    // With the database unreachable the cleanup would wait out a connect or query
    // timeout of its own before the 503; the client waits Retry-After anyway, so it runs behind the answer.
    if (!isDatabaseUnavailable(err)) await cleanup;
    const known = toDomainError(err);
    if (known) {
      if (statusOf(known) >= 500) request.log.warn({ err }, known.code);
      return sendError(reply, known);
    }
    request.log.error({ err }, 'unexpected error');
    return sendError(reply, new DomainError('INTERNAL_ERROR', ERRORS.INTERNAL_ERROR.unexpected));
  });
  app.setNotFoundHandler(async (_request, reply) => sendError(reply, new DomainError('NOT_FOUND', ERRORS.NOT_FOUND.route)));
}
