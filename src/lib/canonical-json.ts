/**
 * Canonical JSON: object keys sorted, no whitespace. Two bodies that differ
 * only in key order or spacing give the same text, so an idempotent retry that
 * re-serialises its body is still recognised as the same request.
 *
 * It recurses, so it refuses values nested deeper than `maxDepth` with a
 * RangeError instead of overflowing the stack; the HTTP layer refuses such
 * bodies long before (http/input-guard.ts, MAX_JSON_DEPTH).
 */
export const CANONICAL_JSON_MAX_DEPTH = 256;

export function canonicalJson(value: unknown, maxDepth = CANONICAL_JSON_MAX_DEPTH): string {
  return write(value, maxDepth);
}

function write(value: unknown, depthLeft: number): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (depthLeft <= 0) throw new RangeError('canonicalJson: value nested too deep');
  if (Array.isArray(value)) return `[${value.map((item) => write(item, depthLeft - 1)).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${write((value as Record<string, unknown>)[k], depthLeft - 1)}`);
  return `{${entries.join(',')}}`;
}
