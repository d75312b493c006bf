/**
 * Prefixed, time-ordered ids: `<prefix>_` + 10 Crockford base-32 characters of
 * milliseconds since the epoch + 16 characters (80 bits) of randomness.
 * Sorting ids as strings sorts them by creation time (to the millisecond), so
 * listing pages by id is keyset pagination.
 */
import { randomBytes } from 'node:crypto';

export const ID_PREFIXES = ['pi', 'trx', 'cmp', 'key', 'whk', 'evt', 'rcv', 'dlv', 'att'] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const BODY = /^[0-9abcdefghjkmnpqrstvwxyz]{26}$/;

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

function encodeRandom(bytes: Buffer): string {
  // 10 bytes = 80 bits = 16 characters of 5 bits.
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let out = '';
  for (let i = 0; i < 16; i++) {
    out = ALPHABET[Number(bits & 31n)] + out;
    bits >>= 5n;
  }
  return out;
}

export type IdGenerator = (prefix: IdPrefix) => string;

export function makeIdGenerator(now: () => number = Date.now): IdGenerator {
  return (prefix) => `${prefix}_${encodeTime(now())}${encodeRandom(randomBytes(10))}`;
}

export const newId: IdGenerator = makeIdGenerator();

/** True when `value` has the shape of an id with this prefix (it may still not exist). */
export function isId(prefix: IdPrefix, value: string): boolean {
  return value.startsWith(`${prefix}_`) && BODY.test(value.slice(prefix.length + 1));
}
