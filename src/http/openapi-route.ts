/**
 * What the API reference says of one route, derived from its schemas and its
 * config (@fastify/swagger's `transform`, documentation only: the route keeps
 * validating and serializing with its own schemas).
 *
 * - Every schema with an `$id` (a resource: PaymentIntent, Transaction …) is a
 *   named component, referenced with `$ref` wherever it appears; a request
 *   body is named after its operation (createPaymentIntent →
 *   CreatePaymentIntentRequest).
 * - A body that may be absent (confirm, resend, refund) is documented as its
 *   object, marked optional (`x-optional-body`, read by openapi-document.ts).
 * - Idempotency-Key is required exactly where the route demands it.
 * - Each error status lists its codes: the route's own (`errors(...)`) and
 *   those every route of its kind answers (key, rate limit, validation,
 *   Idempotency-Key, body size, database).
 */
import type { FastifySchema, RouteOptions } from 'fastify';
import type { ErrorCode } from '../lib/domain-error.js';
import { ERROR_CODES_KEY } from './common-schemas.js';
import { codesByStatus } from './errors.js';

export type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
/** Keywords whose values are data, not schemas. */
export const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'required']);

/** A JSON copy of `schema` where each subschema with an `$id` (the root too, unless `keepRoot`) becomes `{ $ref: id }`. */
export function withRefs(schema: unknown, keepRoot = false): unknown {
  const walk = (node: unknown, root: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, false));
    if (!isObject(node)) return node;
    if (typeof node.$id === 'string' && !root) return { $ref: node.$id };
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) out[key] = DATA_KEYWORDS.has(key) ? value : walk(value, false);
    return out;
  };
  return walk(JSON.parse(JSON.stringify(schema)), keepRoot);
}

/** Every subschema of `schema` that has an `$id`, by id (the first one seen of each id). */
export function namedSubschemas(schema: unknown, found = new Map<string, Json>()): Map<string, Json> {
  if (Array.isArray(schema)) for (const item of schema) namedSubschemas(item, found);
  if (!isObject(schema)) return found;
  if (typeof schema.$id === 'string' && !found.has(schema.$id)) found.set(schema.$id, schema);
  for (const [key, value] of Object.entries(schema)) if (!DATA_KEYWORDS.has(key)) namedSubschemas(value, found);
  return found;
}

/** The name of a route's request body in the reference. */
export const requestBodyName = (operationId: string): string => `${operationId[0]!.toUpperCase()}${operationId.slice(1)}Request`;

/** A body schema without its `null` alternative (the absent body), and whether it had one. */
export function withoutNull(schema: Json): { schema: Json; optional: boolean } {
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const types = schema.type.filter((t) => t !== 'null');
    return { schema: { ...schema, type: types.length === 1 ? types[0] : types }, optional: true };
  }
  const members = Array.isArray(schema.anyOf) ? (schema.anyOf as Json[]) : undefined;
  const others = members?.filter((m) => m.type !== 'null');
  if (members && others && others.length === 1 && others.length < members.length) {
    const annotations = Object.fromEntries(['description', 'examples'].filter((key) => key in schema).map((key) => [key, schema[key]]));
    return { schema: { ...others[0]!, ...annotations }, optional: true };
  }
  return { schema, optional: false };
}

/**
 * The words of the responses' descriptions, which documentRoute writes in
 * English and openapi-localize.ts in another language from the same codes
 * and statuses.
 */
export interface ResponseWords {
  /** What each error code means. */
  codes: Record<ErrorCode, string>;
  /** The word for each success status ("OK"). */
  success: Record<string, string>;
}

/** "VALIDATION_ERROR: invalid input…. NOT_FOUND: no such…": what an error status's codes mean. */
export const errorsDescription = (codes: readonly ErrorCode[], words: ResponseWords): string => codes.map((code) => `${code}: ${words.codes[code]}`).join('. ');

/** "OK: the payment intent": a success status's word and what it answers. */
export const successDescription = (status: string, what: string, words: ResponseWords): string => `${successWord(status, words)}: ${what}`;

export const successWord = (status: string, words: ResponseWords): string => words.success[status] ?? status;

const CODE_MEANINGS: Record<ErrorCode, string> = {
  VALIDATION_ERROR: 'invalid input; `details` names each field',
  TOKEN_REQUIRED: 'a card confirm without `token`',
  UNAUTHORIZED: 'API key missing, invalid, revoked or of the other environment',
  TICKET_EXPIRED: "the ticket's intent expired",
  FORBIDDEN: 'the key lacks the scope of this operation',
  NOT_FOUND: 'no such resource for this company',
  INTENT_ALREADY_PROCESSED: 'the intent is already confirmed, failed or canceled',
  INTENT_EXPIRED: 'the intent expired; create another',
  IDEMPOTENCY_KEY_IN_USE: 'a request with this Idempotency-Key is still running; retry shortly',
  TRANSACTION_NOT_PENDING: 'the transaction is not in the state this move needs',
  PAYMENT_LINK_UNAVAILABLE: 'the payment link expired, was canceled or is used up',
  TRANSACTION_NOT_REFUNDABLE: 'the transaction is not PAID, or is a boleto',
  REFUND_EXCEEDS_AVAILABLE: 'more than what is left to refund',
  REFUND_IN_PROGRESS: 'a card refund of this transaction is still PENDING',
  LAST_ADMIN: "the dashboard: the change would leave the company without an administrator",
  PAYLOAD_TOO_LARGE: 'the body is larger than the limit',
  SPLIT_INVALID: 'the split rules do not add up; `details` names the rule',
  SPLIT_RECIPIENT_NOT_FOUND: 'a recipient is not an approved account',
  WEBHOOK_URL_INVALID: 'the URL is not https or its host is not public',
  WEBHOOK_LIMIT_REACHED: 'the company has 10 active registrations',
  IDEMPOTENCY_KEY_REUSED: 'this Idempotency-Key was used with another route or body',
  PAYMENT_METHOD_UNAVAILABLE: 'the payment method is switched off on this service',
  RATE_LIMITED: 'too many requests; wait Retry-After seconds',
  INTERNAL_ERROR: 'an unexpected failure (logged with the request id)',
  PROVIDER_ERROR: 'the acquirer or PSP did not answer',
  SERVICE_UNAVAILABLE: 'the database is unreachable; wait Retry-After seconds',
};

export const ENGLISH_RESPONSES: ResponseWords = { codes: CODE_MEANINGS, success: { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' } };

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** The codes every route of this kind can answer besides its own. */
function contextualCodes(schema: FastifySchema, route: RouteOptions): ErrorCode[] {
  const codes: ErrorCode[] = ['VALIDATION_ERROR', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];
  if (route.config?.scope) codes.push('UNAUTHORIZED', 'FORBIDDEN', 'RATE_LIMITED');
  if (route.config?.idempotency) codes.push('IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED');
  if (schema.params) codes.push('NOT_FOUND');
  const methods = [route.method].flat();
  if (methods.some((m) => BODY_METHODS.has(m))) codes.push('PAYLOAD_TOO_LARGE');
  return codes;
}

function errorResponse(codes: ErrorCode[]): Json {
  return {
    description: errorsDescription(codes, ENGLISH_RESPONSES),
    allOf: [{ $ref: 'Error' }, { type: 'object', required: ['code'], properties: { code: { type: 'string', enum: codes } } }],
  };
}


/** "PaymentIntent" → "the payment intent". */
const humanName = (id: string) => `the ${id.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}`;

function successResponse(status: string, schema: Json): Json {
  const what = typeof schema.description === 'string' ? schema.description : typeof schema.$id === 'string' ? humanName(schema.$id) : 'the result';
  const documented = typeof schema.$id === 'string' ? { $ref: schema.$id } : (withRefs(schema) as Json);
  return { ...documented, description: successDescription(status, what, ENGLISH_RESPONSES) };
}

function headersOf(headers: Json, mode: 'optional' | 'required' | undefined): Json {
  const properties = { ...(headers.properties as Json) };
  const key = properties['idempotency-key'];
  if (!key) return headers;
  delete properties['idempotency-key'];
  const meaning = 'Same key, route and body within 24 hours: the first response is replayed (Idempotent-Replayed: true) and nothing runs twice.';
  properties['Idempotency-Key'] = { ...(key as Json), description: `${mode === 'required' ? 'Required on this operation' : 'Optional'}. ${meaning}` };
  const required = ((headers.required as string[] | undefined) ?? []).filter((name) => name !== 'idempotency-key');
  return { ...headers, properties, required: mode === 'required' ? [...required, 'Idempotency-Key'] : required };
}

/** @fastify/swagger's `transform`: the documented form of a route's schema. */
export function documentRoute({ schema, url, route }: { schema: FastifySchema; url: string; route: RouteOptions }): { schema: FastifySchema; url: string } {
  if (!schema || (schema as { hide?: boolean }).hide) return { schema, url };
  const doc: Json = { ...schema };
  // A route without a scope takes no API key (health, the hosted page, provider notifications).
  if (!route.config?.scope) doc.security = [];
  const operationId = (schema as { operationId?: string }).operationId;
  if (schema.body && operationId) {
    const { optional } = withoutNull(schema.body as Json);
    doc.body = { $ref: requestBodyName(operationId) };
    if (optional) doc['x-optional-body'] = true;
  }
  if (schema.headers) doc.headers = headersOf(schema.headers as Json, route.config?.idempotency);
  const responses: Json = {};
  const codes = new Set<ErrorCode>(contextualCodes(schema, route));
  for (const [status, response] of Object.entries((schema.response ?? {}) as Record<string, Json>)) {
    if (Number(status) < 400) responses[status] = successResponse(status, response);
    else for (const code of (response[ERROR_CODES_KEY] as ErrorCode[] | undefined) ?? []) codes.add(code);
  }
  for (const [status, list] of [...codesByStatus(codes)].sort(([a], [b]) => a - b)) responses[status] = errorResponse(list);
  doc.response = responses;
  return { schema: doc as FastifySchema, url };
}
