/**
 * Expected failures are values, not exceptions: a service returns
 * `T | DomainError` with a code from the contract's error table, and only the
 * HTTP layer turns the code into a status (http/errors.ts). Returning an error
 * from inside a database transaction commits what was written before it (an
 * intent found expired is persisted EXPIRED); to undo the work, use
 * `rollback()` from db/transact.ts.
 *
 * An error's texts come from the catalog (lib/i18n/messages) in every
 * language at once; the response renders the request's (toBody). Field
 * paths are cut to MAX_FIELD_LENGTH and an error lists at most MAX_DETAILS
 * details: a request's keys reach them, and a 1 MiB body may hold
 * thousands of keys each thousands of characters long.
 */
import type { Language } from './i18n/language.js';
import { ERRORS } from './i18n/messages/errors.js';
import { composed, type Text } from './i18n/text.js';
import type { ErrorCode } from './error-codes.js';

export type { ErrorCode };

/** One field's problem: the field as the request names it, what is wrong with it in every language. */
export interface ErrorDetail {
  field: string;
  message: Text;
}

/** The contract's error body in one language, key order fixed so that a replayed error is byte-identical. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details?: { field: string; message: string }[];
}

/** An error with its texts in every language, for a caller that renders it for its own client (vault/client.ts). */
interface ErrorInEveryLanguage {
  code: ErrorCode;
  message: Text;
  details?: ErrorDetail[];
}

/** The longest field path an error echoes, '…' included. */
export const MAX_FIELD_LENGTH = 100;
/** The most details an error lists (the first ones found). */
export const MAX_DETAILS = 20;

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** A field path as an error shows it: at most MAX_FIELD_LENGTH characters, never half of a surrogate pair. */
export function shownField(field: string): string {
  if (field.length <= MAX_FIELD_LENGTH) return field;
  let end = MAX_FIELD_LENGTH - 1;
  if (isHighSurrogate(field.charCodeAt(end - 1))) end--;
  return `${field.slice(0, end)}…`;
}

/** The details an error lists: the first MAX_DETAILS, their fields cut (shownField). */
export function shownDetails(details: readonly ErrorDetail[]): ErrorDetail[] {
  return details.slice(0, MAX_DETAILS).map((d) => (d.field.length <= MAX_FIELD_LENGTH ? d : { field: shownField(d.field), message: d.message }));
}

export class DomainError {
  readonly details: ErrorDetail[] | undefined;

  constructor(
    readonly code: ErrorCode,
    readonly message: Text,
    details?: readonly ErrorDetail[],
    /** Seconds a client should wait before retrying (429, 503). */
    readonly retryAfterSeconds?: number,
  ) {
    this.details = details && details.length > 0 ? shownDetails(details) : undefined;
  }

  toBody(language: Language): ErrorBody {
    const message = this.message[language];
    return this.details
      ? { code: this.code, message, details: this.details.map((d) => ({ field: d.field, message: d.message[language] })) }
      : { code: this.code, message };
  }

  inEveryLanguage(): ErrorInEveryLanguage {
    return this.details ? { code: this.code, message: this.message, details: this.details } : { code: this.code, message: this.message };
  }
}

/** What a service answers: its result, or the expected failure that stopped it. */
export type Outcome<T> = T | DomainError;

export const isDomainError = (value: unknown): value is DomainError => value instanceof DomainError;

/** The NOT_FOUND messages that take no parameter: a kind of resource. */
type Resource = { [K in keyof typeof ERRORS.NOT_FOUND]: (typeof ERRORS.NOT_FOUND)[K] extends Text ? K : never }[keyof typeof ERRORS.NOT_FOUND];

export const notFound = (resource: Resource): DomainError => new DomainError('NOT_FOUND', ERRORS.NOT_FOUND[resource]);

export function validationError(field: string, problem: Text): DomainError {
  const shown = shownField(field);
  return new DomainError('VALIDATION_ERROR', ERRORS.VALIDATION_ERROR.invalidValue({ field: shown, problem }), [{ field: shown, message: problem }]);
}

/** The details as one line ("amountCents must be at least 1; buyer.email is required"), for a message. */
const summarize = (details: readonly ErrorDetail[]): Text => composed((language) => details.map((d) => `${d.field} ${d.message[language]}`).join('; '));

/** An error whose message repeats its details: the message says the details the body lists (at most MAX_DETAILS). */
export function summarizedError(code: ErrorCode, message: (p: { summary: Text }) => Text, details: readonly ErrorDetail[]): DomainError {
  const shown = shownDetails(details);
  return new DomainError(code, message({ summary: summarize(shown) }), shown);
}

/** Several invalid fields at once: every problem is reported (up to MAX_DETAILS), not just the first. */
export const validationFailure = (details: readonly ErrorDetail[]): DomainError => summarizedError('VALIDATION_ERROR', ERRORS.VALIDATION_ERROR.invalidRequest, details);
