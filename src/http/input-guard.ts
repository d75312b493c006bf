/**
 * Checks every request's input before schema validation, in one place rather
 * than in each route's schema:
 *
 * - no string (body value or key, query, path parameter, header) holds NUL or
 *   a lone UTF-16 surrogate: PostgreSQL refuses both in text, so they would
 *   otherwise surface as a 500 from deep inside a query;
 * - a JSON body is nested at most MAX_JSON_DEPTH levels, so nothing recursive
 *   (Ajv, the canonical-JSON fingerprint of Idempotency-Key) sees a body
 *   deep enough to overflow the stack;
 * - a route that declares no body refuses one: an absent body and `{}` are the
 *   same request, anything else is 400 as an unknown field would be.
 *
 * The walk is itself recursive but stops at MAX_JSON_DEPTH + 1 levels. The
 * API's JSON parser (app.ts) checks the depth before the parse, on the text
 * (jsonTextProblem), with the number of keys and array items (at most
 * MAX_JSON_VALUES: the API's bodies hold a few dozen): JSON.parse alone
 * spends half a second on 1 MiB of nested arrays, or on one object of 90,000
 * keys, and every step after it (this walk, Ajv, the fingerprint) costs a
 * little per value. The vault's bodies (16 KiB) are too small for either.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_DETAILS, validationError, validationFailure, type DomainError } from '../lib/domain-error.js';
import { PROBLEMS } from '../lib/i18n/messages/problems.js';
import type { Text } from '../lib/i18n/text.js';
import { AppError } from './errors.js';

/** The deepest JSON a request may send; the deepest body of the API (buyer.address.zipCode) is 3 levels. */
export const MAX_JSON_DEPTH = 32;
/** The most keys and array items a JSON body may hold; the largest body of the API (an intent with 20 split rules and metadata) holds under 200. */
export const MAX_JSON_VALUES = 1_000;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** With the `u` flag a surrogate pair is one code point, so only a lone surrogate matches. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Why a string is refused, or undefined when it is fine. */
function badText(text: string): Text | undefined {
  if (text.includes('\u0000')) return PROBLEMS.nul;
  if (LONE_SURROGATE.test(text)) return PROBLEMS.loneSurrogate;
  return undefined;
}

const tooDeep = (field: string): DomainError => validationError(field, PROBLEMS.nestedDeeper({ levels: MAX_JSON_DEPTH }));

// The characters of JSON's structure, as char codes: " \ , : [ ] { }
const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a, OPEN_ARRAY = 0x5b, CLOSE_ARRAY = 0x5d, OPEN_OBJECT = 0x7b, CLOSE_OBJECT = 0x7d;
const isJsonSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * A JSON text nested deeper than MAX_JSON_DEPTH or holding more than
 * MAX_JSON_VALUES keys and array items, found in one pass over the text
 * before it is parsed (what is inside strings does not count). A text that
 * is not JSON passes: the parser refuses it.
 */
export function jsonTextProblem(text: string): DomainError | undefined {
  /** For each open container, whether it is an array (whose items are counted at each comma). */
  const inArray: boolean[] = [];
  let values = 0;
  let inString = false;
  let firstItem = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (isJsonSpace(c)) continue;
    if (firstItem && c !== CLOSE_ARRAY) values++;
    firstItem = false;
    if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (inArray.push(c === OPEN_ARRAY) > MAX_JSON_DEPTH) return tooDeep('body');
      firstItem = c === OPEN_ARRAY;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) inArray.pop();
    else if (c === COLON || (c === COMMA && inArray[inArray.length - 1])) values++;
    if (values > MAX_JSON_VALUES) return validationError('body', PROBLEMS.tooManyValues({ limit: MAX_JSON_VALUES }));
  }
  return undefined;
}

const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);

/** The first problem in `value` (a parsed body, query or headers), as a DomainError naming its field. */
function checkValue(value: unknown, path: string, depth: number, root: string): DomainError | undefined {
  if (typeof value === 'string') {
    const why = badText(value);
    return why ? validationError(path || root, why) : undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  if (depth > MAX_JSON_DEPTH) return tooDeep(path || root);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = checkValue(value[i], `${path || root}[${i}]`, depth + 1, root);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const why = badText(key);
    if (why) return validationError(path || root, PROBLEMS.key({ problem: why }));
    const found = checkValue(item, join(path, key), depth + 1, root);
    if (found) return found;
  }
  return undefined;
}

/** Header names as the contract writes them (the fields of details). */
const HEADER_NAMES: Record<string, string> = { 'idempotency-key': 'Idempotency-Key', authorization: 'Authorization', 'x-request-id': 'X-Request-Id' };

function checkHeaders(headers: FastifyRequest['headers']): DomainError | undefined {
  for (const [name, value] of Object.entries(headers)) {
    for (const text of Array.isArray(value) ? value : [value]) {
      const why = typeof text === 'string' ? badText(text) : undefined;
      if (why) return validationError(HEADER_NAMES[name] ?? name, why);
    }
  }
  return undefined;
}

/** A body sent to a route that takes none: `{}` is the same as no body. */
function unexpectedBody(body: unknown): DomainError | undefined {
  if (body === undefined) return undefined;
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const keys = Object.keys(body);
    if (keys.length === 0) return undefined;
    return validationFailure(keys.slice(0, MAX_DETAILS).map((field) => ({ field, message: PROBLEMS.unknownField })));
  }
  return validationError('body', PROBLEMS.noBody);
}

export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    // No route matched: the answer is 404 whatever the input holds.
    if (request.is404) return;
    const found =
      checkHeaders(request.headers) ??
      checkValue(request.params, '', 1, 'path') ??
      checkValue(request.query, '', 1, 'query') ??
      checkValue(request.body, '', 1, 'body') ??
      (BODY_METHODS.has(request.method) && !request.routeOptions.schema?.body ? unexpectedBody(request.body) : undefined);
    if (found) throw new AppError(found);
  });
}
