import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { lazySerializers } from './lazy-serializers.js';

const ERROR = { $id: 'Error', type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } };
const route = (schema: unknown) => ({ method: 'GET', url: '/x', httpStatus: '200', schema });

test('a serializer is compiled at its first use, not when the route is set up, and then kept', () => {
  const compiler = lazySerializers()({ Error: ERROR }, {});
  // A schema fast-json-stringify refuses: set up without a word, refused at the first answer.
  const broken = compiler(route({ type: 'object', properties: { a: { $ref: 'Nowhere#' } } }));
  assert.throws(() => broken({ a: 1 }));

  const schema = { type: 'object', properties: { amount: { type: 'integer' }, error: { $ref: 'Error#' } } };
  const lazy = compiler(route(schema));
  const eager = SerializerSelector()({ Error: ERROR }, {})(route(schema));
  const doc = { amount: 1500, error: { code: 'NOT_FOUND', message: 'não', extra: 'dropped' }, other: true };
  assert.equal(lazy(doc), eager(doc), "the same text as Fastify's own compiler, shared schemas included");
  assert.equal(lazy({ amount: 7 }), '{"amount":7}', 'kept after its first use');
});
