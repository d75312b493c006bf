/**
 * Generators of hostile HTTP input for the fuzz test (test/faults/fuzz.test.ts):
 * strings with control characters, NUL and lone surrogates, huge numbers,
 * deep nesting, wrong types, bad ids, and bodies built from a route's
 * OpenAPI schema then broken at one field.
 */
import fc from 'fast-check';

type Json = unknown;
export type Schema = Record<string, unknown>;

/** Strings that broke services before: NUL, controls, lone surrogates, injection, oversize. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfffy',
    '\u0001\u001f\u007f',
    '\r\n',
    "' OR 1=1 --",
    '${jndi:ldap://x}',
    '../../etc/passwd',
    '%00',
    '\ufeff',
    '\u202e',
    'trx_\u0000',
    'pi_',
    '',
    ' ',
  ),
  fc.integer({ min: 65, max: 600 }).map((n) => 'x'.repeat(n)),
);

/** Longer than any field allows; in a URL, longer than the parser's header limit. Used sparingly: each costs a connection. */
export const oversizedString: fc.Arbitrary<string> = fc.integer({ min: 2_000, max: 40_000 }).map((n) => 'x'.repeat(n));

export const nastyNumber: fc.Arbitrary<number | string> = fc.oneof(
  fc.constantFrom<number | string>(0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, 1e-300),
  fc.double(),
  fc.integer(),
);

/** Raw JSON text no JS value serialises to: huge literals, deep nesting, broken syntax. */
export const nastyJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '{"amountCents":1e400}', '{"a":', '[', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', 'null', '""', 'true'),
  fc.integer({ min: 30, max: 100_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.integer({ min: 30, max: 20_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

/** Any wrong-typed or hostile value for a field. */
export const nastyValue: fc.Arbitrary<Json> = fc.oneof(
  nastyString,
  oversizedString,
  nastyNumber,
  fc.constantFrom<Json>(null, true, false, [], {}, [[[[]]]], { $ne: null }),
  fc.anything({ maxDepth: 3 }),
);

/** Resolves a `$ref` against the document's components. */
function deref(schema: Schema, doc: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.split('/').pop()!;
  const components = (doc.components as { schemas?: Record<string, Schema> } | undefined)?.schemas ?? {};
  return components[name] ?? {};
}

/** A plausible value of `schema` (the first enum value, the minimum, one array item), to be broken at one field. */
export function exampleOf(input: Schema, doc: Schema, depth = 0): Json {
  const schema = deref(input, doc);
  if (depth > 8) return null;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (Array.isArray(schema.anyOf)) return exampleOf(schema.anyOf[0] as Schema, doc, depth + 1);
  switch (type) {
    case 'object': {
      const out: Record<string, Json> = {};
      for (const [key, sub] of Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {})) out[key] = exampleOf(sub, doc, depth + 1);
      return out;
    }
    case 'array':
      return schema.items ? [exampleOf(schema.items as Schema, doc, depth + 1)] : [];
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'date') return '2030-01-15';
      if (schema.format === 'date-time') return '2030-01-15T00:00:00.000Z';
      if (schema.format === 'email') return 'a@example.com';
      if (typeof schema.pattern === 'string' && schema.pattern.startsWith('^[0-9]')) return '52998224725';
      return 'x';
    default:
      return null;
  }
}

/** The paths (key lists) of every field of a JSON value, the root included. */
export function fieldPaths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const out = [prefix];
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) out.push(...fieldPaths(item, [...prefix, Array.isArray(value) ? Number(key) : key]));
  }
  return out;
}

/** A copy of `value` with the field at `path` set to `replacement` (the root when the path is empty). */
export function withField(value: Json, path: (string | number)[], replacement: Json): Json {
  if (path.length === 0) return replacement;
  const copy = (Array.isArray(value) ? [...(value as Json[])] : { ...(value as Record<string, Json>) }) as Record<string | number, Json>;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  copy[head] = withField(copy[head], rest, replacement);
  return copy;
}

/** Percent-encodes any string, lone surrogates included (as their CESU-8 bytes: invalid UTF-8 on purpose). */
export function encodeAny(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (char.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}
