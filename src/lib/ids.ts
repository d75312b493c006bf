/**
 * Prefixed, time-ordered ids: `<prefix>_` + 10 Crockford base-32 characters of
 * milliseconds since the epoch + 16 characters (80 bits) of randomness.
 * Sorting ids as strings sorts them by creation time (to the millisecond), so
 * listing pages by id is keyset pagination.
 */
import { pooledRandomBytes } from './pooled-random.js';

export const ID_PREFIXES = ['pi', 'trx', 'cmp', 'key', 'whk', 'evt', 'rcv', 'dlv', 'att', 'tok', 'plink', 'rf', 'usr', 'aud', 'inv'] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const BODY = /^[0-9abcdefghjkmnpqrstvwxyz]{26}$/;

/** The 1,024 pairs of base-32 characters, by the 10 bits they encode: a pair costs one lookup. */
const PAIRS = Array.from({ length: 1024 }, (_, bits) => ALPHABET[bits >> 5]! + ALPHABET[bits & 31]!);

/** `n` (a whole number below 32^`digits`, `digits` even) as `digits` base-32 characters, most significant first. */
function base32(n: number, digits: number): string {
  let out = '';
  for (let i = 0; i < digits; i += 2) {
    out = PAIRS[n % 1024]! + out;
    n = Math.floor(n / 1024);
  }
  return out;
}

export type IdGenerator = (prefix: IdPrefix) => string;

/**
 * The 80 random bits are two 40-bit halves held in plain numbers (exact below
 * 2^53): adding one and encoding them costs a tenth of doing it on a BigInt,
 * and a sale makes a dozen ids (the intent, its event, one per possible webhook delivery).
 */
const HALF = 2 ** 40;

/**
 * Monotonic within a process: an id made in the same millisecond as the
 * previous one (or after the clock stepped back) reuses that millisecond and
 * adds one to the previous random part, so ids sort in creation order even
 * within a millisecond.
 */
export function makeIdGenerator(now: () => number = Date.now, random: (bytes: number) => Buffer = pooledRandomBytes): IdGenerator {
  let lastMs = -1;
  let high = 0; // the random part's upper 40 bits…
  let low = 0; // …and its lower 40 bits
  return (prefix) => {
    const ms = now();
    const exhausted = high === HALF - 1 && low === HALF - 1;
    if (ms > lastMs || exhausted) {
      lastMs = Math.max(ms, lastMs + (exhausted ? 1 : 0));
      const bits = random(10);
      high = bits.readUIntBE(0, 5) % (HALF / 2); // the top bit clear: room to count up
      low = bits.readUIntBE(5, 5);
    } else if (++low === HALF) {
      low = 0;
      high++;
    }
    return `${prefix}_${base32(lastMs, 10)}${base32(high, 8)}${base32(low, 8)}`;
  };
}

export const newId: IdGenerator = makeIdGenerator();

/** True when `value` has the shape of an id with this prefix (it may still not exist). */
export function isId(prefix: IdPrefix, value: string): boolean {
  return value.startsWith(`${prefix}_`) && BODY.test(value.slice(prefix.length + 1));
}

/** The smallest id with this prefix made at `ms` (every id made then or later sorts after or equal to it). */
export function firstIdAt(prefix: IdPrefix, ms: number): string {
  return `${prefix}_${base32(Math.max(0, ms), 10)}${'0'.repeat(16)}`;
}

/** The millisecond an id was made at (its first 10 characters after the prefix). */
export function timeOfId(id: string): number {
  const body = id.slice(id.indexOf('_') + 1, id.indexOf('_') + 11);
  let ms = 0;
  for (const c of body) ms = ms * 32 + ALPHABET.indexOf(c);
  return ms;
}
