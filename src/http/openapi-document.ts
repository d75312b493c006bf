/**
 * The last pass over the generated document (@fastify/swagger's
 * `transformObject`): what no single route schema can say.
 *
 * - a body that may be absent is not `required`;
 * - a request body's examples (the `examples` of its schema) are shown on the
 *   operation, so "try it" sends one that succeeds in the sandbox;
 * - response headers: X-Request-Id on every response, RateLimit-* on the
 *   operations that take an API key, Retry-After on 429 and 503,
 *   Idempotent-Replayed on the success of an operation taking
 *   Idempotency-Key, WWW-Authenticate on an API key's 401;
 * - every `enum` states its `type` (TypeBox's Type.Enum leaves it out).
 */
import { DATA_KEYWORDS, isObject, type Json } from './openapi-route.js';

const integer = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

/** components.headers: the response headers, by name (rate-limit.ts sends the IETF draft names). */
export const RESPONSE_HEADERS: Record<string, Json> = {
  'X-Request-Id': { description: "The request's id (a valid incoming X-Request-Id is echoed); quote it when reporting a problem.", schema: { type: 'string' } },
  'RateLimit-Limit': integer('Requests allowed per window (one second) for this API key.'),
  'RateLimit-Remaining': integer('Requests left in the current window.'),
  'RateLimit-Reset': integer('Seconds until the window resets.'),
  'Retry-After': integer('Seconds to wait before retrying.'),
  'Idempotent-Replayed': {
    description: 'Present, and `true`, when this response is the stored response of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
  'WWW-Authenticate': { description: 'Always `Bearer`.', schema: { type: 'string', enum: ['Bearer'] } },
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function typeOfValues(values: unknown[]): string | undefined {
  if (values.every((v) => typeof v === 'string')) return 'string';
  if (values.every((v) => Number.isInteger(v))) return 'integer';
  if (values.every((v) => typeof v === 'number')) return 'number';
  if (values.every((v) => typeof v === 'boolean')) return 'boolean';
  return undefined;
}

/** Gives each `enum` without a `type` the type of its values. */
function typeEnums(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(typeEnums);
  if (!isObject(node)) return;
  if (Array.isArray(node.enum) && node.type === undefined) {
    const type = typeOfValues(node.enum);
    if (type) node.type = type;
  }
  for (const [key, value] of Object.entries(node)) if (!DATA_KEYWORDS.has(key)) typeEnums(value);
}

function finishOperation(op: Json, document: Json, schemas: Record<string, Json>, usedHeaders: Set<string>): void {
  const body = op.requestBody as Json | undefined;
  if (body) {
    if (op['x-optional-body']) body.required = false;
    delete op['x-optional-body'];
    for (const media of Object.values((body.content ?? {}) as Record<string, Json>)) {
      const name = String((media.schema as Json | undefined)?.$ref ?? '').replace('#/components/schemas/', '');
      const examples = schemas[name]?.examples;
      if (Array.isArray(examples)) media.examples = Object.fromEntries(examples.map((value, i) => [`example${i + 1}`, { value }]));
    }
  }
  const security = (op.security ?? document.security ?? []) as unknown[];
  const idempotent = ((op.parameters ?? []) as Json[]).some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
  for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
    const names = ['X-Request-Id'];
    if (security.length > 0) names.push('RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset');
    if (status === '429' || status === '503') names.push('Retry-After');
    // Sent with UNAUTHORIZED (a key refused), not with the vault's TICKET_EXPIRED.
    if (status === '401' && security.length > 0) names.push('WWW-Authenticate');
    if (idempotent && status.startsWith('2')) names.push('Idempotent-Replayed');
    response.headers = { ...(response.headers as Json | undefined), ...Object.fromEntries(names.map((name) => [name, ref(name)])) };
    for (const name of names) usedHeaders.add(name);
  }
}

/** @fastify/swagger's `transformObject`. */
export function finishDocument(document: Json): Json {
  const usedHeaders = new Set<string>();
  const schemas = ((document.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  for (const item of Object.values((document.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) if (isObject(item[method])) finishOperation(item[method], document, schemas, usedHeaders);
  }
  // The vault answers no RateLimit-* or Idempotent-Replayed: its document lists only the headers it sends (first among the components).
  const headers = Object.fromEntries(Object.entries(RESPONSE_HEADERS).filter(([name]) => usedHeaders.has(name)));
  document.components = { headers, ...(document.components as Json) };
  typeEnums(document);
  return document;
}
