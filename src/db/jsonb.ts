/**
 * A value as PostgreSQL's jsonb gives it back: object keys reordered, shorter
 * keys first (by UTF-8 length), then bytewise; undefined members dropped.
 * A view built in memory from what was written must show the same bytes as
 * one built from the row read back (a GET, a stored event body, a replay).
 */
export function asJsonb<T>(value: T): T {
  return normalized(value) as T;
}

function normalized(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : normalized(v)));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined);
  keys.sort(jsonbKeyOrder);
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = normalized((value as Record<string, unknown>)[k]);
  return out;
}

function jsonbKeyOrder(a: string, b: string): number {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length - y.length || Buffer.compare(x, y);
}
