/**
 * Assertions on the contract's error responses: one error handler renders
 * every failure as `{code, message, details?}`, so every test checks errors
 * the same way.
 */
import assert from 'node:assert/strict';

export interface ErrorBody {
  code: string;
  message: string;
  details?: { field: string; message: string }[];
}

/** What assertError reads of a response: inject's answer fits. */
export interface ErrorResponse {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
  json(): unknown;
}

/** The body is exactly {code, message[, details]} with the right types. */
export function assertErrorBody(body: unknown): asserts body is ErrorBody {
  assert.ok(body && typeof body === 'object' && !Array.isArray(body), 'error body must be an object');
  const keys = Object.keys(body).sort().join(',');
  assert.ok(keys === 'code,message' || keys === 'code,details,message', `error body keys were ${keys}`);
  const b = body as ErrorBody;
  assert.match(b.code, /^[A-Z_]+$/);
  assert.equal(typeof b.message, 'string');
  assert.ok(b.message.length > 0, 'the message is not empty');
  if (b.details !== undefined) {
    assert.ok(Array.isArray(b.details) && b.details.length > 0, 'details, when present, is a non-empty array');
    for (const d of b.details) {
      assert.deepEqual(Object.keys(d).sort(), ['field', 'message']);
      assert.equal(typeof d.field, 'string');
      assert.equal(typeof d.message, 'string');
    }
  }
}

/** The fields an error's details name, in order. */
export const fieldsOf = (body: ErrorBody): string[] => (body.details ?? []).map((d) => d.field);

/**
 * Checks an error response: the status, X-Request-Id (and with UNAUTHORIZED
 * WWW-Authenticate: Bearer), a JSON body of the contract's shape with this code and, when `fields` is given, details naming each of them
 * (`exactly`: naming those and no other).
 */
export function assertError(
  res: ErrorResponse,
  status: number,
  code: string,
  fields?: string | readonly string[],
  opts: { exactly?: boolean } = {},
): ErrorBody {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/, res.body);
  assert.ok(res.headers['x-request-id'], 'every response carries X-Request-Id');
  if (code === 'UNAUTHORIZED') assert.equal(res.headers['www-authenticate'], 'Bearer', 'UNAUTHORIZED names the Bearer scheme');
  const body = res.json();
  assertErrorBody(body);
  assert.equal(body.code, code, res.body);
  if (fields !== undefined) {
    const expected = typeof fields === 'string' ? [fields] : [...fields];
    const named = fieldsOf(body);
    if (opts.exactly) assert.deepEqual([...named].sort(), expected.sort(), `details should name exactly ${expected.join(', ')}: ${res.body}`);
    else for (const field of expected) assert.ok(named.includes(field), `details should name ${field}: ${res.body}`);
  }
  return body;
}
