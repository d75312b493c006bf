/**
 * Card brands: detection by IIN/BIN prefix (Elo before the brands its ranges
 * overlap), allowed lengths, CVV lengths, Luhn. Pure.
 *
 * Brand ids are lower case and stable (`amex`, `diners`, not display names);
 * `CARD_BRAND_NAMES` has the names to show.
 *
 * The hosted fields page bundles this file (web/vault/hosted-fields/brands.js,
 * built by scripts/build-web.mjs), so the browser knows exactly these brands:
 * keep it free of imports (no Node built-ins; the browser build fails on them).
 *
 * Sources for the IIN ranges (none of the Brazilian brands publishes an
 * official table; these are the ranges open-source validators agree on):
 * - Elo, Hiper(card), Visa, Mastercard, Amex, Diners, Discover, JCB:
 *   braintree/credit-card-type, src/lib/card-types.ts
 *   (https://github.com/braintree/credit-card-type). Its Elo list is the one
 *   below, range for range; many other libraries copy it verbatim.
 * - Hipercard 384100/384140/384160 (`^3841[046]0`) and 606282, Aura `^50`
 *   with 16–19 digits, Hipercard 13/16/19 digits:
 *   erikhenrique/bin-cc README and its successor renatovico/bin-cc
 *   data/brands.json, data/sources/aura.json (https://github.com/renatovico/bin-cc).
 *   Note: bin-cc's Elo regexp stops the 6509xx range at 650920 where
 *   credit-card-type goes to 650978; we follow credit-card-type (wider).
 * - Discover 622126–622925, JCB 3528–3589, Diners 300–305/36/38/39: the
 *   classic IIN table (also in credit-card-type and django-oscar's bankcards).
 */

export type CardBrand = 'visa' | 'mastercard' | 'elo' | 'hipercard' | 'amex' | 'diners' | 'discover' | 'jcb' | 'aura';

export const CARD_BRANDS: readonly CardBrand[] = ['visa', 'mastercard', 'elo', 'hipercard', 'amex', 'diners', 'discover', 'jcb', 'aura'];

export const CARD_BRAND_NAMES: Readonly<Record<CardBrand, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  elo: 'Elo',
  hipercard: 'Hipercard',
  amex: 'American Express',
  diners: 'Diners Club',
  discover: 'Discover',
  jcb: 'JCB',
  aura: 'Aura',
};

/** Allowed number lengths (digits) per brand. */
export const CARD_NUMBER_LENGTHS: Readonly<Record<CardBrand, readonly number[]>> = {
  visa: [13, 16, 19],
  mastercard: [16],
  elo: [16],
  hipercard: [13, 16, 19],
  amex: [15],
  diners: [14, 15, 16, 17, 18, 19],
  discover: [16, 17, 18, 19],
  jcb: [16, 17, 18, 19],
  aura: [16, 17, 18, 19],
};

/** CVV / CVC / CID length per brand. */
export const CVV_LENGTHS: Readonly<Record<CardBrand, number>> = {
  visa: 3,
  mastercard: 3,
  elo: 3,
  hipercard: 3,
  amex: 4,
  diners: 3,
  discover: 3,
  jcb: 3,
  aura: 3,
};

export const MIN_CARD_DIGITS = 12;
export const MAX_CARD_DIGITS = 19;
/** An expiry more than this many years after the current year is refused. */
export const MAX_YEARS_AHEAD = 20;
export const HOLDER_NAME_MIN = 2;
export const HOLDER_NAME_MAX = 26;

/** A prefix range: both ends have the same number of digits, inclusive. */
export type PrefixRange = readonly [from: number, to: number];

const one = (prefix: number): PrefixRange => [prefix, prefix];

/**
 * Detection order matters: a number takes the first brand with a matching
 * prefix. Elo comes first because its BINs sit inside Visa's 4, Aura's 50 and
 * Discover's 65; Hipercard's 3841x0 comes before Diners' 38; Aura's catch-all
 * 50 comes after Elo's 504175 / 506699–506778 / 509xxx.
 */
export const CARD_BRAND_PREFIXES: readonly (readonly [CardBrand, readonly PrefixRange[]])[] = [
  [
    'elo',
    [
      one(401178),
      one(401179),
      one(431274),
      one(438935),
      one(451416),
      one(457393),
      one(457631),
      one(457632),
      one(504175),
      [506699, 506778],
      [509000, 509999],
      one(627780),
      one(636297),
      one(636368),
      [650031, 650033],
      [650035, 650051],
      [650405, 650439],
      [650485, 650538],
      [650541, 650598],
      [650700, 650718],
      [650720, 650727],
      [650901, 650978],
      [651652, 651679],
      [655000, 655019],
      [655021, 655058],
    ],
  ],
  [
    'hipercard',
    [
      // Hipercard proper.
      one(606282),
      one(384100),
      one(384140),
      one(384160),
      // Hiper (Itaú's other brand, `hiper` in credit-card-type): reported as hipercard.
      one(637095),
      one(637568),
      one(637599),
      one(637609),
      one(637612),
      one(63737423),
      one(63743358),
    ],
  ],
  ['amex', [one(34), one(37)]],
  ['diners', [[300, 305], one(36), one(38), one(39)]],
  ['jcb', [[3528, 3589]]],
  ['discover', [one(6011), [622126, 622925], [644, 649], one(65)]],
  ['mastercard', [[51, 55], [2221, 2720]]],
  ['visa', [one(4)]],
  ['aura', [one(50)]],
];

function matchesRange(digits: string, [from, to]: PrefixRange): boolean {
  const width = String(from).length;
  if (digits.length < width) return false;
  const head = Number(digits.slice(0, width));
  return head >= from && head <= to;
}

const SEPARATORS = /[\s-]/g;
export const DIGITS = /^\d+$/;

/**
 * The digits of a card number typed with spaces or dashes ("4111 1111-1111
 * 1111" → "4111111111111111"); undefined when anything else is in it.
 */
export function normalizeCardNumber(number: string): string | undefined {
  if (number.length > 64) return undefined;
  const digits = number.replace(SEPARATORS, '');
  return DIGITS.test(digits) ? digits : undefined;
}

/**
 * The brand of a card number by its IIN/BIN, or undefined. Meant for a full
 * number (Elo needs six digits to be told apart from Visa or Discover); it
 * does not check length or Luhn.
 */
export function detectBrand(number: string): CardBrand | undefined {
  const digits = normalizeCardNumber(number);
  if (!digits) return undefined;
  for (const [brand, ranges] of CARD_BRAND_PREFIXES) {
    if (ranges.some((range) => matchesRange(digits, range))) return brand;
  }
  return undefined;
}

/** Luhn (mod 10) check. Spaces and dashes are ignored; anything else non-digit fails. */
export function luhnValid(number: string): boolean {
  const digits = normalizeCardNumber(number);
  if (!digits) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** The last four digits (spaces and dashes ignored); '' when the number is not digits. */
export function last4(number: string): string {
  return (normalizeCardNumber(number) ?? '').slice(-4);
}
