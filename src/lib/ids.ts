/**
 * Prefixed, time-ordered ids: `<prefix>_` + 10 Crockford base-32 characters of
 * milliseconds since the epoch + 16 characters (80 bits) of randomness.
 * Sorting ids as strings sorts them by creation time (to the millisecond), so
 * listing pages by id is keyset pagination.
 */
import { randomBytes } from 'node:crypto';

export const ID_PREFIXES = ['pi', 'trx', 'cmp', 'key', 'whk', 'evt', 'rcv', 'dlv', 'att', 'tok', 'plink', 'rf'] as const;
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

function encodeRandom(bits: bigint): string {
  // 80 bits = 16 characters of 5 bits.
  let out = '';
  for (let i = 0; i < 16; i++) {
    out = ALPHABET[Number(bits & 31n)] + out;
    bits >>= 5n;
  }
  return out;
}

export type IdGenerator = (prefix: IdPrefix) => string;

const RANDOM_MAX = (1n << 80n) - 1n;

/**
 * Monotonic within a process: an id made in the same millisecond as the
 * previous one (or after the clock stepped back) reuses that millisecond and
 * adds one to the previous random part, so ids sort in creation order even
 * within a millisecond.
 */
export function makeIdGenerator(now: () => number = Date.now): IdGenerator {
  let lastMs = -1;
  let lastRandom = 0n;
  return (prefix) => {
    const ms = now();
    if (ms > lastMs || lastRandom === RANDOM_MAX) {
      lastMs = Math.max(ms, lastMs + (lastRandom === RANDOM_MAX ? 1 : 0));
      lastRandom = BigInt(`0x${randomBytes(10).toString('hex')}`) >> 1n; // leave room to count up
    } else {
      lastRandom += 1n;
    }
    return `${prefix}_${encodeTime(lastMs)}${encodeRandom(lastRandom)}`;
  };
}

export const newId: IdGenerator = makeIdGenerator();

/** True when `value` has the shape of an id with this prefix (it may still not exist). */
export function isId(prefix: IdPrefix, value: string): boolean {
  return value.startsWith(`${prefix}_`) && BODY.test(value.slice(prefix.length + 1));
}

/** The smallest id with this prefix made at `ms` (every id made then or later sorts after or equal to it). */
export function firstIdAt(prefix: IdPrefix, ms: number): string {
  return `${prefix}_${encodeTime(Math.max(0, ms))}${'0'.repeat(16)}`;
}

/** The millisecond an id was made at (its first 10 characters after the prefix). */
export function timeOfId(id: string): number {
  const body = id.slice(id.indexOf('_') + 1, id.indexOf('_') + 11);
  let ms = 0;
  for (const c of body) ms = ms * 32 + ALPHABET.indexOf(c);
  return ms;
}
