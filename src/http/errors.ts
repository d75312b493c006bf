/**
 * Expected failures are values with a code from the contract's error table.
 * STATUS_BY_CODE gives each code its HTTP status; a code missing from the map
 * does not compile. The error handler (http/error-handler.ts) renders every
 * AppError as the spec's body `{code, message, details?}` and nothing else.
 */

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
  PAYLOAD_TOO_LARGE: 413,
  SPLIT_INVALID: 422,
  SPLIT_RECIPIENT_NOT_FOUND: 422,
  WEBHOOK_URL_INVALID: 422,
  WEBHOOK_LIMIT_REACHED: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  PROVIDER_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof STATUS_BY_CODE;

export interface ErrorDetail {
  field: string;
  message: string;
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[];
}

export class AppError extends Error {
  readonly statusCode: number;
  /** Seconds for a Retry-After header (429, 503). */
  retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = STATUS_BY_CODE[code];
  }

  /** The body exactly as sent; key order is fixed so a replayed error is byte-identical. */
  toBody(): ErrorBody {
    return this.details && this.details.length > 0
      ? { code: this.code, message: this.message, details: this.details }
      : { code: this.code, message: this.message };
  }
}

export const validationError = (field: string, message: string): AppError =>
  new AppError('VALIDATION_ERROR', `Invalid value for ${field}: ${message}`, [{ field, message }]);

export const notFound = (what: string): AppError => new AppError('NOT_FOUND', `${what} not found`);
