/** Schemas shared by every route: the error body, path ids, the list envelope and its paging query. */
import { Type, type TSchema } from 'typebox';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../lib/paging.js';

export const ErrorBodySchema = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  },
  { $id: 'ErrorBody', description: 'Every error: a code from the error table, a message, and the invalid fields.' },
);

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
});

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });

export function listEnvelope<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), hasMore: Type.Boolean() });
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

const errorRef = Type.Ref('ErrorBody');

/** Documents the error responses of a route for the OpenAPI reference. */
export function errors(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const status of [...statuses, 401, 429, 500, 503]) out[status] = errorRef;
  return out;
}
