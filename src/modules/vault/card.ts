/**
 * Card validation for the vault: number (digits, Luhn, brand, length for the
 * brand), holder name, expiry (São Paulo calendar) and CVV length per brand.
 * Pure: no I/O, no clock (`now` is passed in).
 *
 * Nothing here ever puts a card number or a CVV in a message: problems carry
 * fixed texts (and at most a brand name), so they can go to the buyer's page
 * as VALIDATION_ERROR details and into logs as they are.
 */
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import type { Text } from '../../lib/i18n/text.js';
import { saoPauloDate } from '../../lib/sao-paulo-date.js';
import { CARD_NUMBER_LENGTHS, CVV_LENGTHS, MIN_CARD_DIGITS, MAX_CARD_DIGITS, MAX_YEARS_AHEAD, HOLDER_NAME_MIN, HOLDER_NAME_MAX, CARD_BRAND_NAMES, DIGITS, normalizeCardNumber, detectBrand, luhnValid, type CardBrand } from './card-brands.js';

export * from './card-brands.js';
export * from './card-sandbox.js';

interface CardInput {
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
  message: Text;
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
const CARD_PAYLOAD_FIELD = 'encryptedCard';

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
    return { ok: false, problems: [{ field: CARD_PAYLOAD_FIELD, message: PROBLEMS.cardObject }] };
  }
  const problems: CardProblem[] = [];

  // number
  let number: string | undefined;
  let brand: CardBrand | undefined;
  const rawNumber = input.number;
  if (rawNumber === undefined || rawNumber === null || rawNumber === '') {
    problems.push({ field: 'number', message: PROBLEMS.required });
  } else if (typeof rawNumber !== 'string') {
    problems.push({ field: 'number', message: PROBLEMS.digitString });
  } else {
    const digits = normalizeCardNumber(rawNumber);
    if (digits === undefined) {
      problems.push({ field: 'number', message: PROBLEMS.onlyDigits });
    } else if (digits.length < MIN_CARD_DIGITS || digits.length > MAX_CARD_DIGITS) {
      problems.push({ field: 'number', message: PROBLEMS.digitCount({ min: MIN_CARD_DIGITS, max: MAX_CARD_DIGITS }) });
    } else if (!luhnValid(digits)) {
      problems.push({ field: 'number', message: PROBLEMS.cardNumber });
    } else {
      const detected = detectBrand(digits);
      if (!detected) {
        problems.push({ field: 'number', message: PROBLEMS.brand });
      } else {
        brand = detected;
        const lengths = CARD_NUMBER_LENGTHS[detected];
        if (!lengths.includes(digits.length)) {
          problems.push({ field: 'number', message: PROBLEMS.digitsForBrand({ digits: describeLengths(lengths), brand: CARD_BRAND_NAMES[detected] }) });
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
    problems.push({ field: 'holderName', message: PROBLEMS.required });
  } else if (typeof rawName !== 'string') {
    problems.push({ field: 'holderName', message: PROBLEMS.string });
  } else {
    const name = normalizeHolderName(rawName);
    const length = [...name].length;
    if (length < HOLDER_NAME_MIN || length > HOLDER_NAME_MAX) {
      problems.push({ field: 'holderName', message: PROBLEMS.characterCount({ min: HOLDER_NAME_MIN, max: HOLDER_NAME_MAX }) });
    } else if (!HOLDER_NAME_CHARS.test(name) || !HAS_LETTER.test(name)) {
      problems.push({ field: 'holderName', message: PROBLEMS.holderName });
    } else {
      holderName = name;
    }
  }

  // expMonth
  let expMonth: number | undefined;
  if (input.expMonth === undefined || input.expMonth === null || input.expMonth === '') {
    problems.push({ field: 'expMonth', message: PROBLEMS.required });
  } else {
    const m = readInteger(input.expMonth, 2);
    if (m === undefined || m < 1 || m > 12) problems.push({ field: 'expMonth', message: PROBLEMS.month });
    else expMonth = m;
  }

  // expYear
  let expYear: number | undefined;
  if (input.expYear === undefined || input.expYear === null || input.expYear === '') {
    problems.push({ field: 'expYear', message: PROBLEMS.required });
  } else {
    const raw = input.expYear;
    const y = readInteger(raw, 4);
    const twoDigits = y !== undefined && y >= 0 && y <= 99 && (typeof raw === 'number' || String(raw).trim().length === 2);
    if (y === undefined || (!twoDigits && (y < 1000 || y > 9999))) {
      problems.push({ field: 'expYear', message: PROBLEMS.year });
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
      problems.push({ field: 'expYear', message: PROBLEMS.cardExpired });
      expYear = undefined;
    } else if (expYear === year && expMonth < month) {
      problems.push({ field: 'expMonth', message: PROBLEMS.cardExpired });
      expMonth = undefined;
    } else if (expYear > year + MAX_YEARS_AHEAD) {
      problems.push({ field: 'expYear', message: PROBLEMS.yearsAhead({ limit: MAX_YEARS_AHEAD }) });
      expYear = undefined;
    }
  }

  // cvv
  let cvv: string | undefined;
  const rawCvv = input.cvv;
  if (rawCvv === undefined || rawCvv === null || rawCvv === '') {
    problems.push({ field: 'cvv', message: PROBLEMS.required });
  } else if (typeof rawCvv !== 'string') {
    problems.push({ field: 'cvv', message: PROBLEMS.digitString });
  } else {
    const c = rawCvv.trim();
    if (!DIGITS.test(c)) {
      problems.push({ field: 'cvv', message: PROBLEMS.onlyDigits });
    } else if (brand) {
      const expected = CVV_LENGTHS[brand];
      if (c.length !== expected) problems.push({ field: 'cvv', message: PROBLEMS.digitsForBrand({ digits: String(expected), brand: CARD_BRAND_NAMES[brand] }) });
      else cvv = c;
    } else if (c.length !== 3 && c.length !== 4) {
      problems.push({ field: 'cvv', message: PROBLEMS.cvvLength });
    }
  }

  if (options.rejectUnknownFields) {
    for (const key of Object.keys(input)) {
      if (CARD_FIELDS.has(key)) continue;
      // Never echo a key that could be data (digits, long strings): name it only when it looks like a field name.
      problems.push(
        SAFE_FIELD_NAME.test(key)
          ? { field: key, message: PROBLEMS.notCardField }
          : { field: CARD_PAYLOAD_FIELD, message: PROBLEMS.nonCardField },
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
