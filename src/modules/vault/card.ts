/**
 * Card validation for the vault: brand detection by IIN/BIN, Luhn, lengths,
 * holder name, expiry and CVV, plus the sandbox acquirer's outcome per card
 * number. Pure: no I/O, no clock (`now` is passed in).
 *
 * Nothing here ever puts a card number or a CVV in a message: problems carry
 * fixed texts (and at most a brand name), so they can go to the buyer's page
 * as VALIDATION_ERROR details and into logs as they are.
 *
 * Brand ids are lower case and stable (`amex`, `diners`, not display names);
 * `CARD_BRAND_NAMES` has the names to show.
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
import { saoPauloDate } from '../../lib/sao-paulo-date.js';

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
type PrefixRange = readonly [from: number, to: number];

const one = (prefix: number): PrefixRange => [prefix, prefix];

/**
 * Detection order matters: a number takes the first brand with a matching
 * prefix. Elo comes first because its BINs sit inside Visa's 4, Aura's 50 and
 * Discover's 65; Hipercard's 3841x0 comes before Diners' 38; Aura's catch-all
 * 50 comes after Elo's 504175 / 506699–506778 / 509xxx.
 */
const BRAND_PREFIXES: readonly (readonly [CardBrand, readonly PrefixRange[]])[] = [
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
const DIGITS = /^\d+$/;

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
  for (const [brand, ranges] of BRAND_PREFIXES) {
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

export interface CardInput {
  number: string;
  holderName: string;
  expMonth: number;
  expYear: number;
  cvv: string;
}

export interface ValidCard extends CardInput {
  brand: CardBrand;
  last4: string;
}

export interface CardProblem {
  field: string;
  message: string;
}

export type CardValidation = { ok: true; card: ValidCard } | { ok: false; problems: CardProblem[] };

export interface ValidateCardOptions {
  /**
   * Report fields other than the five card fields as problems. Off by default:
   * the payload is built by our own hosted page, and dropping an extra field
   * (the result carries only the five fields) beats refusing a buyer's card
   * over a version skew between a cached SDK and the vault.
   */
  rejectUnknownFields?: boolean;
}

/**
 * The field named when the decrypted payload is not a JSON object: it
 * arrived as the `encryptedCard` field of POST /tokenize.
 */
export const CARD_PAYLOAD_FIELD = 'encryptedCard';

const CARD_FIELDS = new Set(['number', 'holderName', 'expMonth', 'expYear', 'cvv']);

// Letters (any script, accents included), combining marks, space, . ' -
const HOLDER_NAME_CHARS = /^[\p{L}\p{M} .'-]+$/u;
const HAS_LETTER = /\p{L}/u;
const SAFE_FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An integer given as a JSON number or as a string of 1..maxDigits digits. */
function readInteger(value: unknown, maxDigits: number): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value === 'string') {
    const s = value.trim();
    if (s.length >= 1 && s.length <= maxDigits && DIGITS.test(s)) return Number(s);
  }
  return undefined;
}

/** Holder name: NFC, typographic apostrophe → ', blanks collapsed and trimmed. */
function normalizeHolderName(name: string): string {
  return name.normalize('NFC').replace(/[\u2019\u02bc]/g, "'").replace(/\s+/g, ' ').trim();
}

/**
 * Validates the decrypted card payload `{number, holderName, expMonth,
 * expYear, cvv}`.
 *
 * - number: a string; spaces and dashes are removed, then 12–19 digits,
 *   Luhn-valid, a supported brand, a length that brand issues.
 * - holderName: 2–26 characters after normalising (NFC, blanks collapsed):
 *   letters (accents allowed), spaces and . ' - (’ is taken as '), at least
 *   one letter.
 * - expMonth: integer 1–12 (a number, or a string "1".."12" / "01").
 * - expYear: four digits, or two digits read as 20YY.
 * - expiry: valid through the last day of the expiry month on the São Paulo
 *   calendar (the buyers' calendar and the rest of the service's); expired
 *   before that — reported on `expYear` when the year is past, on `expMonth`
 *   when only the month is. At most 20 years after the current year.
 * - cvv: a string of digits, 4 for American Express, 3 for the others (3 or 4
 *   when the brand is unknown, so a bad number does not hide a bad CVV).
 * - A non-object payload: one problem on `encryptedCard`. Other fields are
 *   ignored unless `rejectUnknownFields`.
 *
 * The card returned holds the normalised values (digits-only number, 4-digit
 * year), its brand and last 4 digits.
 */
export function validateCard(input: unknown, now: Date, options: ValidateCardOptions = {}): CardValidation {
  if (!isPlainObject(input)) {
    return { ok: false, problems: [{ field: CARD_PAYLOAD_FIELD, message: 'must be a JSON object with the card fields' }] };
  }
  const problems: CardProblem[] = [];

  // number
  let number: string | undefined;
  let brand: CardBrand | undefined;
  const rawNumber = input.number;
  if (rawNumber === undefined || rawNumber === null || rawNumber === '') {
    problems.push({ field: 'number', message: 'is required' });
  } else if (typeof rawNumber !== 'string') {
    problems.push({ field: 'number', message: 'must be a string of digits' });
  } else {
    const digits = normalizeCardNumber(rawNumber);
    if (digits === undefined) {
      problems.push({ field: 'number', message: 'must contain only digits' });
    } else if (digits.length < MIN_CARD_DIGITS || digits.length > MAX_CARD_DIGITS) {
      problems.push({ field: 'number', message: `must have ${MIN_CARD_DIGITS} to ${MAX_CARD_DIGITS} digits` });
    } else if (!luhnValid(digits)) {
      problems.push({ field: 'number', message: 'is not a valid card number' });
    } else {
      const detected = detectBrand(digits);
      if (!detected) {
        problems.push({ field: 'number', message: 'is from a card brand that is not accepted' });
      } else {
        brand = detected;
        const lengths = CARD_NUMBER_LENGTHS[detected];
        if (!lengths.includes(digits.length)) {
          problems.push({ field: 'number', message: `must have ${describeLengths(lengths)} digits for ${CARD_BRAND_NAMES[detected]}` });
        } else {
          number = digits;
        }
      }
    }
  }

  // holderName
  let holderName: string | undefined;
  const rawName = input.holderName;
  if (rawName === undefined || rawName === null || rawName === '') {
    problems.push({ field: 'holderName', message: 'is required' });
  } else if (typeof rawName !== 'string') {
    problems.push({ field: 'holderName', message: 'must be a string' });
  } else {
    const name = normalizeHolderName(rawName);
    const length = [...name].length;
    if (length < HOLDER_NAME_MIN || length > HOLDER_NAME_MAX) {
      problems.push({ field: 'holderName', message: `must have ${HOLDER_NAME_MIN} to ${HOLDER_NAME_MAX} characters` });
    } else if (!HOLDER_NAME_CHARS.test(name) || !HAS_LETTER.test(name)) {
      problems.push({ field: 'holderName', message: "may contain only letters, spaces and . ' -" });
    } else {
      holderName = name;
    }
  }

  // expMonth
  let expMonth: number | undefined;
  if (input.expMonth === undefined || input.expMonth === null || input.expMonth === '') {
    problems.push({ field: 'expMonth', message: 'is required' });
  } else {
    const m = readInteger(input.expMonth, 2);
    if (m === undefined || m < 1 || m > 12) problems.push({ field: 'expMonth', message: 'must be an integer from 1 to 12' });
    else expMonth = m;
  }

  // expYear
  let expYear: number | undefined;
  if (input.expYear === undefined || input.expYear === null || input.expYear === '') {
    problems.push({ field: 'expYear', message: 'is required' });
  } else {
    const raw = input.expYear;
    const y = readInteger(raw, 4);
    const twoDigits = y !== undefined && y >= 0 && y <= 99 && (typeof raw === 'number' || String(raw).trim().length === 2);
    if (y === undefined || (!twoDigits && (y < 1000 || y > 9999))) {
      problems.push({ field: 'expYear', message: 'must be a 4-digit year' });
    } else {
      expYear = twoDigits ? 2000 + y : y;
    }
  }

  // expiry against now (São Paulo calendar)
  if (expMonth !== undefined && expYear !== undefined) {
    const today = saoPauloDate(now); // YYYY-MM-DD
    const year = Number(today.slice(0, 4));
    const month = Number(today.slice(5, 7));
    if (expYear < year) {
      problems.push({ field: 'expYear', message: 'card has expired' });
      expYear = undefined;
    } else if (expYear === year && expMonth < month) {
      problems.push({ field: 'expMonth', message: 'card has expired' });
      expMonth = undefined;
    } else if (expYear > year + MAX_YEARS_AHEAD) {
      problems.push({ field: 'expYear', message: `must be at most ${MAX_YEARS_AHEAD} years ahead` });
      expYear = undefined;
    }
  }

  // cvv
  let cvv: string | undefined;
  const rawCvv = input.cvv;
  if (rawCvv === undefined || rawCvv === null || rawCvv === '') {
    problems.push({ field: 'cvv', message: 'is required' });
  } else if (typeof rawCvv !== 'string') {
    problems.push({ field: 'cvv', message: 'must be a string of digits' });
  } else {
    const c = rawCvv.trim();
    if (!DIGITS.test(c)) {
      problems.push({ field: 'cvv', message: 'must contain only digits' });
    } else if (brand) {
      const expected = CVV_LENGTHS[brand];
      if (c.length !== expected) problems.push({ field: 'cvv', message: `must have ${expected} digits for ${CARD_BRAND_NAMES[brand]}` });
      else cvv = c;
    } else if (c.length !== 3 && c.length !== 4) {
      problems.push({ field: 'cvv', message: 'must have 3 or 4 digits' });
    }
  }

  if (options.rejectUnknownFields) {
    for (const key of Object.keys(input)) {
      if (CARD_FIELDS.has(key)) continue;
      // Never echo a key that could be data (digits, long strings): name it only when it looks like a field name.
      problems.push(
        SAFE_FIELD_NAME.test(key)
          ? { field: key, message: 'is not a card field' }
          : { field: CARD_PAYLOAD_FIELD, message: 'contains a field that is not a card field' },
      );
    }
  }

  if (
    problems.length > 0 ||
    number === undefined ||
    brand === undefined ||
    holderName === undefined ||
    expMonth === undefined ||
    expYear === undefined ||
    cvv === undefined
  ) {
    return { ok: false, problems };
  }
  return { ok: true, card: { number, holderName, expMonth, expYear, cvv, brand, last4: number.slice(-4) } };
}

function describeLengths(lengths: readonly number[]): string {
  if (lengths.length === 1) return String(lengths[0]);
  const first = lengths[0]!;
  const last = lengths[lengths.length - 1]!;
  if (last - first === lengths.length - 1) return `${first} to ${last}`;
  return `${lengths.slice(0, -1).join(', ')} or ${last}`;
}

// ---------------------------------------------------------------------------
// Sandbox acquirer (contract "Sandbox"): any Luhn-valid number is approved
// except the endings …0002 (insufficient funds), …0069 (expired card) and
// …0119 (the acquirer stays silent → 502 PROVIDER_ERROR).

export type SandboxCardOutcome = 'approved' | 'insufficient_funds' | 'expired_card' | 'silent';

export type CardRefusalCode = 'insufficient_funds' | 'expired_card';

/** `refusalCode` / `refusalMessage` for a refused card's paymentDetails.card. */
export const CARD_REFUSALS: Readonly<Record<CardRefusalCode, { refusalCode: CardRefusalCode; refusalMessage: string }>> = {
  insufficient_funds: { refusalCode: 'insufficient_funds', refusalMessage: 'The issuer refused the payment: insufficient funds.' },
  expired_card: { refusalCode: 'expired_card', refusalMessage: 'The issuer refused the payment: the card has expired.' },
};

/** Number endings with a special sandbox outcome. */
export const SANDBOX_OUTCOMES: Readonly<Record<string, Exclude<SandboxCardOutcome, 'approved'>>> = {
  '0002': 'insufficient_funds',
  '0069': 'expired_card',
  '0119': 'silent',
};

/** What the sandbox acquirer does with a (validated, Luhn-valid) card number. */
export function sandboxCardOutcome(number: string): SandboxCardOutcome {
  return SANDBOX_OUTCOMES[last4(number)] ?? 'approved';
}

export type SandboxAuthorization =
  | { outcome: 'approved' }
  | { outcome: 'refused'; refusalCode: CardRefusalCode; refusalMessage: string }
  | { outcome: 'silent' };

/** sandboxCardOutcome with the refusal code and message filled in. */
export function sandboxAuthorization(number: string): SandboxAuthorization {
  const outcome = sandboxCardOutcome(number);
  if (outcome === 'approved' || outcome === 'silent') return { outcome };
  return { outcome: 'refused', ...CARD_REFUSALS[outcome] };
}

// ---------------------------------------------------------------------------
// Test cards: Luhn-valid, right BIN and length for their brand. Well-known
// network test numbers where one exists; the others were built for this
// table (prefix + zeros, one digit adjusted for Luhn).

export interface TestCard {
  number: string;
  brand: CardBrand;
  cvvLength: number;
  outcome: SandboxCardOutcome;
  note: string;
}

export const TEST_CARDS: readonly TestCard[] = [
  { number: '4111111111111111', brand: 'visa', cvvLength: 3, outcome: 'approved', note: 'Visa' },
  { number: '5555555555554444', brand: 'mastercard', cvvLength: 3, outcome: 'approved', note: 'Mastercard 51–55' },
  { number: '2223003122003222', brand: 'mastercard', cvvLength: 3, outcome: 'approved', note: 'Mastercard 2-series' },
  { number: '378282246310005', brand: 'amex', cvvLength: 4, outcome: 'approved', note: 'American Express (15 digits)' },
  { number: '30569309025904', brand: 'diners', cvvLength: 3, outcome: 'approved', note: 'Diners Club (14 digits)' },
  { number: '6011111111111117', brand: 'discover', cvvLength: 3, outcome: 'approved', note: 'Discover' },
  { number: '3530111333300000', brand: 'jcb', cvvLength: 3, outcome: 'approved', note: 'JCB' },
  { number: '6362970000457013', brand: 'elo', cvvLength: 3, outcome: 'approved', note: 'Elo 636297' },
  { number: '4011780000300000', brand: 'elo', cvvLength: 3, outcome: 'approved', note: 'Elo 401178 (looks like Visa)' },
  { number: '6504060000100000', brand: 'elo', cvvLength: 3, outcome: 'approved', note: 'Elo 650406 (looks like Discover)' },
  { number: '6062825624254001', brand: 'hipercard', cvvLength: 3, outcome: 'approved', note: 'Hipercard 606282' },
  { number: '3841000000800000', brand: 'hipercard', cvvLength: 3, outcome: 'approved', note: 'Hipercard 384100 (looks like Diners)' },
  { number: '5078601870800000127', brand: 'aura', cvvLength: 3, outcome: 'approved', note: 'Aura (19 digits)' },
  { number: '4111113111110002', brand: 'visa', cvvLength: 3, outcome: 'insufficient_funds', note: 'refused: insufficient funds' },
  { number: '4111113111110069', brand: 'visa', cvvLength: 3, outcome: 'expired_card', note: 'refused: expired card' },
  { number: '4111113111110119', brand: 'visa', cvvLength: 3, outcome: 'silent', note: 'acquirer silent (502 PROVIDER_ERROR)' },
];
