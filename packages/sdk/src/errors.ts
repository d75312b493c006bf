/** What a call can throw: the API's error answer, or no answer at all. */
import type { components } from './openapi.js';

/** An error answer's body, as the OpenAPI document describes every one. */
type ErrorBody = components['schemas']['Error'];

/** The codes of the contract's error table, as the document lists them. */
export type ErrorCode = components['schemas']['ErrorCode'];

/** One invalid field of a request: its dotted path (buyer.email) or header name, and what is wrong with it. */
export type ErrorDetail = NonNullable<ErrorBody['details']>[number];

/**
 * The code an answer without the contract's body is given (a proxy's 502
 * page, a load balancer's 503): the code the service itself uses for that status.
 */
const CODE_OF_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
  502: 'PROVIDER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

/** The API answered with an error status: its `{code, message, details}` body, the status and the request's id. */
export class SvcApiError<C extends ErrorCode = ErrorCode> extends Error {
  override readonly name = 'SvcApiError';

  constructor(
    readonly status: number,
    readonly code: C,
    message: string,
    /** The invalid fields (VALIDATION_ERROR, SPLIT_INVALID …); empty when the answer names none. */
    readonly details: ErrorDetail[],
    /** The answer's X-Request-Id: quote it when asking for support. */
    readonly requestId: string | undefined,
    /** Retry-After of the answer, in seconds (429, 503). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  /** Builds the error from an answer's status, headers and body text. */
  static fromResponse(status: number, headers: Headers, text: string): SvcApiError {
    const body = parseErrorBody(text);
    const requestId = headers.get('x-request-id') ?? undefined;
    const retryAfter = retryAfterMs(headers.get('retry-after'));
    const code = body?.code ?? CODE_OF_STATUS[status] ?? 'INTERNAL_ERROR';
    const message = body?.message ?? `HTTP ${status} without the API's error body`;
    return new SvcApiError(status, code, message, body?.details ?? [], requestId, retryAfter === undefined ? undefined : retryAfter / 1000);
  }
}

/** Whether `err` is an API error, of one of `codes` when they are given. */
export function isSvcApiError<C extends ErrorCode>(err: unknown, ...codes: C[]): err is SvcApiError<C> {
  return err instanceof SvcApiError && (codes.length === 0 || (codes as ErrorCode[]).includes(err.code));
}

/** No answer: the connection failed or the attempt timed out, after every retry. */
export class SvcConnectionError extends Error {
  override readonly name = 'SvcConnectionError';
}

function parseErrorBody(text: string): { code: ErrorCode; message: string; details?: ErrorDetail[] } | undefined {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string') {
      return body as { code: ErrorCode; message: string; details?: ErrorDetail[] };
    }
  } catch {
    // Not JSON: the caller falls back to the status.
  }
  return undefined;
}

/** Retry-After (delay-seconds or an HTTP date) in milliseconds from now; undefined when absent or unreadable. */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
