/** Schemas shared by every route: the error body, path ids, the list envelope and its paging query. */
import { Type, type TSchema } from 'typebox';
import type { ErrorCode } from '../lib/domain-error.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../lib/paging.js';
import { codesByStatus, STATUS_BY_CODE } from './errors.js';
import { TAX_ID_PATTERN } from '../lib/tax-id.js';

export const ErrorCodeSchema = Type.Unsafe<ErrorCode>({
  $id: 'ErrorCode',
  type: 'string',
  enum: Object.keys(STATUS_BY_CODE),
  description: 'A code of the error table; each code has one HTTP status.',
});

export const ErrorBodySchema = Type.Object(
  {
    code: Type.Ref('ErrorCode'),
    message: Type.String({ description: 'for people; may change, never parse it' }),
    details: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.String({ description: 'a dotted path (buyer.email, splitRules[1].percentage) or a header name (Idempotency-Key)' }),
          message: Type.String(),
        }),
      ),
    ),
  },
  { $id: 'Error', description: 'Every error: a code from the error table, a message, and the invalid fields.' },
);

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
});

/**
 * A CPF or CNPJ as the API takes it: no punctuation; the alphanumeric CNPJ in capital letters.
 * A mismatch is answered with the shape in words (validation.ts), not with this pattern.
 */
export const TaxId = (description: string) => Type.String({ pattern: TAX_ID_PATTERN, description });

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });

/** A page of a list, named `<Item>Page` in the API reference when its item is named. */
export function listEnvelope<T extends TSchema>(item: T) {
  const name = (item as { $id?: string }).$id;
  return Type.Object(
    { data: Type.Array(item), hasMore: Type.Boolean({ description: 'more items after the last one: ask again with startingAfter = its id' }) },
    name ? { $id: `${name}Page`, description: `A page of ${name} items, newest first` } : {},
  );
}

/** `limit` of every list (lib/paging.ts is the policy). */
export const PageLimit = Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE }));

/** The query of a list with no filter: a page size and the last id of the previous page. */
export const PageQuery = Type.Object(
  {
    limit: PageLimit,
    startingAfter: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);

/** The annotation that carries a response's error codes to the API reference (http/openapi-route.ts). */
export const ERROR_CODES_KEY = 'x-error-codes';

/**
 * The error responses of a route's own rules, by code; the reference adds the
 * errors every route of its kind can answer (authentication, rate limit,
 * validation, Idempotency-Key, body size). Errors are sent as text
 * (error-handler.ts), so these schemas only document them.
 */
export function errors(...codes: ErrorCode[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const [status, list] of codesByStatus(codes)) out[status] = Type.Unsafe({ $ref: 'Error', [ERROR_CODES_KEY]: list });
  return out;
}
