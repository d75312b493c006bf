/**
 * Response serializers compiled on first use. Fastify compiles one
 * (fast-json-stringify: generated code) for every status of every route's
 * response schema when the app starts, errors' statuses included: about a
 * sixth of the CPU of a `svc` start, and of every app the tests build, for
 * serializers a process mostly never runs. Here each is compiled when its
 * route first answers with that status, then kept; what it writes is the same
 * (Fastify's own compiler, given the same shared schemas). A schema the
 * compiler refuses fails at that first answer instead of at the start: the
 * tests answer every route, and `npm run lint` checks every schema.
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** Fastify's serializer factory (schemaController.compilersFactory.buildSerializer), compiling each serializer lazily. */
export function lazySerializers(): SerializerFactory {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    return (route) => {
      let serialize: ((doc: unknown) => string) | undefined;
      return (doc: unknown) => (serialize ??= compile(route))(doc);
    };
  };
}
