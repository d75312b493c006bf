/**
 * The contract's error codes, apart from DomainError (domain-error.ts) so
 * that the catalog of their texts (i18n/messages/errors.ts), which
 * DomainError's helpers read, can name them without importing it back.
 */
/** http/errors.ts maps each one to its status; a code without a status does not compile. */
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
  | 'LAST_ADMIN'
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
