/**
 * FEBRABAN "boleto de cobrança": the 44-digit barcode and the 47-digit
 * digitable line (linha digitável) printed above it.
 *
 * Barcode (44):  bank(3) currency(1) generalDV(1) factor(4) amount(10) freeField(25)
 * Line (47):     field1 = bank+currency+free[0..5)  + mod10   (10)
 *                field2 = free[5..15)               + mod10   (11)
 *                field3 = free[15..25)              + mod10   (11)
 *                field4 = generalDV                           (1)
 *                field5 = factor + amount                     (14)
 *
 * Everything is pure string arithmetic on digits; dates are São Paulo calendar
 * dates ('YYYY-MM-DD') so no clock or time zone is involved. Functions throw
 * RangeError on inputs that break their contract: callers (HTTP layer) are
 * expected to validate user input first and map it to their own errors.
 */
import { MAX_AMOUNT_CENTS } from '../../lib/money.js';
import { addDays, daysBetween, isValidDate } from '../../lib/sao-paulo-date.js';

/** Currency code for the Brazilian real. */
const CURRENCY_REAL = '9';

/** Day 0 of the due-date factor. */
const FACTOR_BASE_DATE = '1997-10-07';
/** First day with a 4-digit factor (1000): factors below it are not used any more. */
const FIRST_FACTOR_DATE = '2000-07-03';
/**
 * FEBRABAN rule: after 9999 (2025-02-21) the factor restarts at 1000 on
 * 2025-02-22. The factor alone is therefore ambiguous; readers resolve it with
 * a window around "today", so we only encode dates of the current cycle and of
 * the one before it. Beyond this date a new rule would be needed, and a typo
 * like 2105 must fail instead of silently wrapping.
 */
const SECOND_CYCLE_START = '2025-02-22';
/** Factor 9999 of the second cycle (2025-02-22 + 8999 days). */
const LAST_FACTOR_DATE = addDays(SECOND_CYCLE_START, 8_999); // 2049-10-13

/** 4-digit due-date factor for a 'YYYY-MM-DD' due date. */
export function dueDateFactor(dueDate: string): string {
  if (!isValidDate(dueDate)) throw new RangeError(`dueDate must be a valid YYYY-MM-DD date, got "${dueDate}"`);
  if (dueDate < FIRST_FACTOR_DATE || dueDate > LAST_FACTOR_DATE) {
    throw new RangeError(`dueDate ${dueDate} is outside the representable range ${FIRST_FACTOR_DATE}..${LAST_FACTOR_DATE}`);
  }
  const factor =
    dueDate < SECOND_CYCLE_START
      ? daysBetween(FACTOR_BASE_DATE, dueDate) // 1000..9999
      : 1000 + daysBetween(SECOND_CYCLE_START, dueDate); // restarts at 1000
  return String(factor).padStart(4, '0');
}

function assertDigits(value: string, what: string, length?: number): void {
  const ok = length === undefined ? /^\d+$/.test(value) : value.length === length && /^\d+$/.test(value);
  if (!ok) throw new RangeError(`${what} must be ${length ?? 'one or more'} digits, got "${value}"`);
}

/**
 * Module 10 check digit of the digitable-line fields: weights 2,1,2,1... from
 * the rightmost digit, products above 9 contribute their digit sum (same as
 * Luhn), DV = (10 - sum % 10) % 10.
 */
export function mod10(digits: string): number {
  assertDigits(digits, 'mod10 input');
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    const product = Number(digits[i]) * weight;
    sum += product > 9 ? product - 9 : product; // digit sum of a 2-digit product
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

/**
 * Module 11 general check digit of the barcode, computed over the 43 digits
 * that remain without it: weights 2..9 cycling from the right,
 * DV = 11 - sum % 11, and 0, 10 and 11 become 1 (the DV is never 0).
 */
export function mod11Barcode(digits43: string): number {
  assertDigits(digits43, 'barcode without its check digit', 43);
  let sum = 0;
  let weight = 2;
  for (let i = digits43.length - 1; i >= 0; i--) {
    sum += Number(digits43[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const dv = 11 - (sum % 11);
  return dv === 0 || dv === 10 || dv === 11 ? 1 : dv;
}

export interface BoletoInput {
  /** 3-digit FEBRABAN bank code, e.g. "341". */
  bankCode: string;
  /** 1..9 999 999 999 centavos (the barcode's 10-digit amount field). */
  amountCents: number;
  /** 'YYYY-MM-DD', see dueDateFactor for the accepted range. */
  dueDate: string;
  /** 25 digits whose layout belongs to the issuing bank. */
  freeField: string;
}

export interface Boleto {
  /** 44 digits. */
  barcode: string;
  /** 47 digits, no dots or spaces (see formatDigitableLine for the printed form). */
  digitableLine: string;
}

export function buildBoleto(input: BoletoInput): Boleto {
  assertDigits(input.bankCode, 'bankCode', 3);
  assertDigits(input.freeField, 'freeField', 25);
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents < 1 || input.amountCents > MAX_AMOUNT_CENTS) {
    throw new RangeError(`amountCents must be an integer in 1..${MAX_AMOUNT_CENTS}, got ${input.amountCents}`);
  }
  const factor = dueDateFactor(input.dueDate);
  const amount = String(input.amountCents).padStart(10, '0');

  // The general DV sits at position 5 but is computed over the other 43 digits.
  const head = input.bankCode + CURRENCY_REAL;
  const tail = factor + amount + input.freeField;
  const barcode = head + String(mod11Barcode(head + tail)) + tail;
  return { barcode, digitableLine: barcodeToDigitableLine(barcode) };
}

/** Rearranges a 44-digit barcode into the 47-digit line, adding the three mod-10 DVs. */
function barcodeToDigitableLine(barcode: string): string {
  const free = barcode.slice(19, 44);
  const f1 = barcode.slice(0, 4) + free.slice(0, 5);
  const f2 = free.slice(5, 15);
  const f3 = free.slice(15, 25);
  return `${f1}${mod10(f1)}${f2}${mod10(f2)}${f3}${mod10(f3)}${barcode[4]}${barcode.slice(5, 19)}`;
}

/** People paste the printed form; dots and whitespace are the only separators it uses. */
function normalizeLine(line: string): string {
  const digits = line.replace(/[.\s]/g, '');
  assertDigits(digits, 'digitable line', 47);
  return digits;
}

/**
 * The 44-digit barcode a digitable line encodes. Only rearranges digits (it
 * drops the three field DVs without checking them): use validateDigitableLine
 * to know whether the line is correct. Accepts the printed form too.
 */
export function digitableLineToBarcode(line: string): string {
  const d = normalizeLine(line);
  // field1 = d[0..10), field2 = d[10..21), field3 = d[21..32), DV = d[32], field5 = d[33..47)
  return d.slice(0, 4) + d[32] + d.slice(33, 47) + d.slice(4, 9) + d.slice(10, 20) + d.slice(21, 31);
}

/**
 * Checks a typed or pasted line: the mod-10 DV of each of the three first
 * fields, then the mod-11 general DV of the barcode it encodes. Note that the
 * general DV folds remainders 0, 1 and 10 into 1, so for lines whose general
 * DV is 1 some single-digit typos in field 5 cannot be detected by anyone.
 */
export function validateDigitableLine(line: string): { valid: boolean; reason?: string } {
  let d: string;
  try {
    d = normalizeLine(line);
  } catch {
    return { valid: false, reason: 'a digitable line has 47 digits' };
  }
  const fields: Array<[start: number, end: number]> = [
    [0, 9],
    [10, 20],
    [21, 31],
  ];
  for (const [n, [start, end]] of fields.entries()) {
    if (mod10(d.slice(start, end)) !== Number(d[end])) {
      return { valid: false, reason: `field ${n + 1} check digit does not match` };
    }
  }
  const barcode = digitableLineToBarcode(d);
  if (mod11Barcode(barcode.slice(0, 4) + barcode.slice(5)) !== Number(barcode[4])) {
    return { valid: false, reason: 'general (mod 11) check digit does not match' };
  }
  return { valid: true };
}

/** Printed form: `AAABC.CCCCX DDDDD.DDDDDY EEEEE.EEEEEZ K UUUUVVVVVVVVVV`. */
export function formatDigitableLine(line: string): string {
  const d = normalizeLine(line);
  return (
    `${d.slice(0, 5)}.${d.slice(5, 10)} ${d.slice(10, 15)}.${d.slice(15, 21)} ` +
    `${d.slice(21, 26)}.${d.slice(26, 32)} ${d[32]} ${d.slice(33, 47)}`
  );
}

/** Fixed identifiers of our sandbox issuer (not a real bank account). */
const SANDBOX_AGENCY = '0001';
const SANDBOX_WALLET = '09';
const SANDBOX_ACCOUNT = '1234567';
const MAX_SANDBOX_OUR_NUMBER = 99_999_999_999; // 11 digits

/**
 * Free field of the sandbox issuer, 25 digits:
 * agency(4) "0001" + wallet(2) "09" + our number(11, zero-padded) + account(7) "1234567" + "0".
 * Our number ("nosso número") identifies the charge inside the issuer, so it
 * must be a positive integer that fits in 11 digits.
 */
export function sandboxFreeField(ourNumber: number): string {
  if (!Number.isSafeInteger(ourNumber) || ourNumber < 1 || ourNumber > MAX_SANDBOX_OUR_NUMBER) {
    throw new RangeError(`ourNumber must be an integer in 1..${MAX_SANDBOX_OUR_NUMBER}, got ${ourNumber}`);
  }
  return SANDBOX_AGENCY + SANDBOX_WALLET + String(ourNumber).padStart(11, '0') + SANDBOX_ACCOUNT + '0';
}
