/**
 * One error handler renders every failure as the spec's body
 * `{code, message, details?}`. Expected failures are AppErrors; Fastify's own
 * errors (malformed JSON, body too large, bad media type) are mapped to their
 * contract codes; a lost database is 503; anything else is a 500 with a
 * generic message, and its details go only to the log.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { AppError } from './errors.js';

const DATABASE_RETRY_AFTER_SECONDS = 5;

function fromFastify(err: FastifyError): AppError | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('VALIDATION_ERROR', 'The request body is not valid JSON', [{ field: 'body', message: 'is not valid JSON' }]);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'The request body is larger than the limit');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('VALIDATION_ERROR', 'The request body must be JSON', [
        { field: 'Content-Type', message: 'must be application/json' },
      ]);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('VALIDATION_ERROR', 'Content-Length does not match the body', [
        { field: 'Content-Length', message: 'does not match the body' },
      ]);
    default:
      if (err.statusCode === 413) return new AppError('PAYLOAD_TOO_LARGE', 'The request body is larger than the limit');
      if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 && err.statusCode !== 429) {
        return new AppError('VALIDATION_ERROR', 'The request is malformed');
      }
      return undefined;
  }
}

export function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  if (isDatabaseUnavailable(err)) {
    const e = new AppError('SERVICE_UNAVAILABLE', 'The service is temporarily unavailable; retry shortly');
    e.retryAfterSeconds = DATABASE_RETRY_AFTER_SECONDS;
    return e;
  }
  if (err && typeof err === 'object' && 'code' in err) return fromFastify(err as FastifyError);
  return undefined;
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
  if (error.code === 'UNAUTHORIZED') reply.header('WWW-Authenticate', 'Bearer');
  return reply.code(error.statusCode).type('application/json; charset=utf-8').send(JSON.stringify(error.toBody()));
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
  let error: AppError;
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    error = new AppError('VALIDATION_ERROR', 'Invalid request: id must be at most 64 characters', [{ field: 'id', message: 'must be at most 64 characters' }]);
  } else if (err.code === 'FST_ERR_BAD_URL') {
    error = new AppError('VALIDATION_ERROR', 'The request URL is not valid percent-encoding', [{ field: 'path', message: 'is not a valid URL' }]);
  } else {
    error = toAppError(err) ?? new AppError('INTERNAL_ERROR', 'An unexpected error occurred; it has been logged');
  }
  return sendError(reply, error);
}

export function installErrorHandler(app: FastifyInstance, onError?: (request: FastifyRequest) => Promise<void>): void {
  app.setErrorHandler(async (err, request, reply) => {
    if (onError) await onError(request).catch((e: unknown) => request.log.error({ err: e }, 'cleanup after error failed'));
    const known = toAppError(err);
    if (known) {
      if (known.statusCode >= 500) request.log.warn({ err }, known.code);
      return sendError(reply, known);
    }
    request.log.error({ err }, 'unexpected error');
    return sendError(reply, new AppError('INTERNAL_ERROR', 'An unexpected error occurred; it has been logged'));
  });
  app.setNotFoundHandler(async (_request, reply) => sendError(reply, new AppError('NOT_FOUND', 'No such route')));
}
