/*
 * Card brands in the hosted fields. Why a module: the brand table is the
 * server's own (src/modules/vault/card-brands.ts, bundled in at build time),
 * so the browser names, sizes and checks exactly the brands the vault
 * accepts; this file only adds what a form needs on top of it: a guess while
 * the number is still being typed.
 */
import {
  CARD_BRAND_NAMES,
  CARD_BRAND_PREFIXES,
  CARD_NUMBER_LENGTHS,
  CVV_LENGTHS,
  detectBrand as detectFullNumber,
} from '../../../src/modules/vault/card-brands.ts';
import { digitsOnly } from './digits.js';

/** Any length from 13 to 19 and either CVV length until the brand is known. */
const UNKNOWN = { name: '', lengths: [13, 14, 15, 16, 17, 18, 19], cvv: 0 };

/** Digits in the longest prefix of the table (Hiper's 8-digit BINs). */
const WIDEST = Math.max(...CARD_BRAND_PREFIXES.flatMap(([, ranges]) => ranges.map(([from]) => String(from).length)));

/** While typing, a brand shows once it is the brand of this share of the numbers that could follow. */
const GUESS_SHARE = 0.95;

/**
 * How much of the numbers starting with `digits` (shorter than WIDEST) each
 * brand takes, detection order applied: a range only counts where no earlier
 * range claimed the number first (Elo's BINs inside Visa's 4, Aura's 50).
 */
function shares(digits) {
  const size = 10 ** (WIDEST - digits.length);
  const lo = Number(digits) * size;
  const hi = lo + size;
  let claimed = []; // disjoint [from, to) intervals already taken
  const out = new Map();
  for (const [brand, ranges] of CARD_BRAND_PREFIXES) {
    for (const [from, to] of ranges) {
      const scale = 10 ** (WIDEST - String(from).length);
      const a = Math.max(lo, from * scale);
      const b = Math.min(hi, (to + 1) * scale);
      if (a >= b) continue;
      let taken = 0;
      for (const [c, d] of claimed) taken += Math.max(0, Math.min(b, d) - Math.max(a, c));
      out.set(brand, (out.get(brand) ?? 0) + (b - a - taken) / size);
      claimed = merge([...claimed, [a, b]]);
    }
  }
  return out;
}

function merge(intervals) {
  const sorted = intervals.sort((x, y) => x[0] - y[0]);
  const out = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/**
 * Brand id from the digits typed so far, or null. A number as long as the
 * table's widest prefix gets the server's answer; a shorter one gets the
 * brand nearly all of its possible continuations have ("4" is Visa, "51"
 * Mastercard), and none while the digits still split between brands ("5067"
 * may be Elo or Aura).
 */
export function detectBrand(number) {
  const digits = digitsOnly(number);
  if (!digits) return null;
  if (digits.length >= WIDEST) return detectFullNumber(digits) ?? null;
  for (const [brand, share] of shares(digits)) {
    if (share >= GUESS_SHARE) return brand;
  }
  return null;
}

/** {name, lengths, cvv} of a brand id; the unknown brand's for null or an id the table lacks. */
export function brandInfo(brand) {
  if (!Object.prototype.hasOwnProperty.call(CARD_BRAND_NAMES, brand)) return UNKNOWN;
  return { name: CARD_BRAND_NAMES[brand], lengths: CARD_NUMBER_LENGTHS[brand], cvv: CVV_LENGTHS[brand] };
}

/** The most digits a number of this brand has. */
export function maxLength(brand) {
  const lengths = brandInfo(brand).lengths;
  return lengths[lengths.length - 1];
}
