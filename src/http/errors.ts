/**
 * The HTTP face of the contract's error table. Services return DomainError
 * values (lib/domain-error.ts) and never a status; STATUS_BY_CODE gives each
 * code its status, and a code missing from the map does not compile.
 *
 * AppError is for the HTTP layer's own hooks (auth, validation, rate limit,
 * Idempotency-Key), which Fastify can only stop by throwing; the error handler
 * (http/error-handler.ts) renders it and every DomainError as the spec's body.
 */
import { DomainError, type ErrorCode, type ErrorDetail } from '../lib/domain-error.js';
import type { Text } from '../lib/i18n/text.js';

export const STATUS_BY_CODE = {
  VALIDATION_ERROR: 400,
  TOKEN_REQUIRED: 400,
  UNAUTHORIZED: 401,
  TICKET_EXPIRED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  INTENT_ALREADY_PROCESSED: 409,
  INTENT_EXPIRED: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  TRANSACTION_NOT_PENDING: 409,
  PAYMENT_LINK_UNAVAILABLE: 409,
  TRANSACTION_NOT_REFUNDABLE: 409,
  REFUND_EXCEEDS_AVAILABLE: 409,
  REFUND_IN_PROGRESS: 409,
  LAST_ADMIN: 409,
  PAYLOAD_TOO_LARGE: 413,
  SPLIT_INVALID: 422,
  SPLIT_RECIPIENT_NOT_FOUND: 422,
  WEBHOOK_URL_INVALID: 422,
  WEBHOOK_LIMIT_REACHED: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  PAYMENT_METHOD_UNAVAILABLE: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  PROVIDER_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<ErrorCode, number>;

export const statusOf = (error: DomainError): number => STATUS_BY_CODE[error.code];

/** `codes` grouped by their HTTP status, each group in the order given. */
export function codesByStatus(codes: Iterable<ErrorCode>): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(STATUS_BY_CODE[code], [...(byStatus.get(STATUS_BY_CODE[code]) ?? []), code]);
  return byStatus;
}

/** A DomainError thrown out of an HTTP hook. */
export class AppError extends Error {
  readonly error: DomainError;

  constructor(error: DomainError);
  constructor(code: ErrorCode, message: Text, details?: ErrorDetail[], retryAfterSeconds?: number);
  constructor(code: ErrorCode | DomainError, message?: Text, details?: ErrorDetail[], retryAfterSeconds?: number) {
    const error = code instanceof DomainError ? code : new DomainError(code, message!, details, retryAfterSeconds);
    super(error.message.en);
    this.name = 'AppError';
    this.error = error;
  }
}
