/**
 * Expected failures are values, not exceptions: a service returns
 * `T | DomainError` with a code from the contract's error table, and only the
 * HTTP layer turns the code into a status (http/errors.ts). Returning an error
 * from inside a database transaction commits what was written before it (an
 * intent found expired is persisted EXPIRED); to undo the work, use
 * `rollback()` from db/transact.ts.
 */

/** The contract's error codes. http/errors.ts maps each one to its status; a code without a status does not compile. */
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'TOKEN_REQUIRED'
  | 'UNAUTHORIZED'
  | 'TICKET_EXPIRED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'INTENT_ALREADY_PROCESSED'
  | 'INTENT_EXPIRED'
  | 'IDEMPOTENCY_KEY_IN_USE'
  | 'TRANSACTION_NOT_PENDING'
  | 'PAYMENT_LINK_UNAVAILABLE'
  | 'TRANSACTION_NOT_REFUNDABLE'
  | 'REFUND_EXCEEDS_AVAILABLE'
  | 'REFUND_IN_PROGRESS'
  | 'PAYLOAD_TOO_LARGE'
  | 'SPLIT_INVALID'
  | 'SPLIT_RECIPIENT_NOT_FOUND'
  | 'WEBHOOK_URL_INVALID'
  | 'WEBHOOK_LIMIT_REACHED'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'PAYMENT_METHOD_UNAVAILABLE'
  | 'RATE_LIMITED'
  | 'INTERNAL_ERROR'
  | 'PROVIDER_ERROR'
  | 'SERVICE_UNAVAILABLE';

export interface ErrorDetail {
  field: string;
  message: string;
}

/** The contract's error body, key order fixed so that a replayed error is byte-identical. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[];
}

export class DomainError {
  constructor(
    readonly code: ErrorCode,
    readonly message: string,
    readonly details?: ErrorDetail[],
    /** Seconds a client should wait before retrying (429, 503). */
    readonly retryAfterSeconds?: number,
  ) {}

  toBody(): ErrorBody {
    return this.details && this.details.length > 0
      ? { code: this.code, message: this.message, details: this.details }
      : { code: this.code, message: this.message };
  }
}

/** What a service answers: its result, or the expected failure that stopped it. */
export type Outcome<T> = T | DomainError;

export const isDomainError = (value: unknown): value is DomainError => value instanceof DomainError;

export const notFound = (what: string): DomainError => new DomainError('NOT_FOUND', `${what} not found`);

export const validationError = (field: string, message: string): DomainError =>
  new DomainError('VALIDATION_ERROR', `Invalid value for ${field}: ${message}`, [{ field, message }]);

/** The details as one line ("amountCents must be at least 1; buyer.email is required"), for a message. */
export const summarize = (details: ErrorDetail[]): string => details.map((d) => `${d.field} ${d.message}`).join('; ');

/** Several invalid fields at once: every problem is reported, not just the first. */
export function validationFailure(details: ErrorDetail[]): DomainError {
  return new DomainError('VALIDATION_ERROR', `Invalid request: ${summarize(details)}`, details);
}
