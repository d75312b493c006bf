/**
 * The compact serialization of JWS and JWE (RFC 7515 and RFC 7516, section
 * 7.1): base64url parts joined by dots. A card ticket (a JWS: tickets.ts) and
 * an encrypted card (a JWE: card-jwe.ts) are both read through it.
 */
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** The `count` parts of a compact serialization; undefined for another number of parts or a character outside base64url. */
export function compactParts(text: string, count: number): string[] | undefined {
  const parts = text.split('.');
  return parts.length === count && parts.every((p) => BASE64URL.test(p)) ? parts : undefined;
}

/** A part decoded as a JSON object (a header or a claims set); undefined when it is not one. */
export function decodeJsonObject(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
