/**
 * Money is an integer number of centavos; rates are integer basis points
 * (1 bp = 0.01 %). Every operation here is exact integer arithmetic: the
 * largest product (99 999 999 99 centavos x 10 000 bp) is far below 2^53.
 */

export const MAX_AMOUNT_CENTS = 99_999_999_99;

/** amount x bp / 10 000, rounded half-up to the centavo (amount and bp are non-negative). */
export function percentOfHalfUp(amountCents: number, bp: number): number {
  return Math.floor((amountCents * bp + 5_000) / 10_000);
}

/** amount x bp / 10 000, rounded down: a percentage slice never exceeds its exact value. */
export function percentOfFloor(amountCents: number, bp: number): number {
  return Math.floor((amountCents * bp) / 10_000);
}

/** The largest amount written as a decimal: 13 characters ("9999999999.99"), the BR Code's field 54 and the API Pix's `\d{1,10}\.\d{2}`. */
const MAX_DECIMAL_CENTS = 999_999_999_999;

/** 1234 -> "12.34": the decimal form of the Pix BR Code amount field and of the API Pix `valor`. */
export function centsToDecimal(amountCents: number): string {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0 || amountCents > MAX_DECIMAL_CENTS) {
    throw new Error(`an amount must be whole centavos in 0..${MAX_DECIMAL_CENTS}, got ${amountCents}`);
  }
  const whole = Math.floor(amountCents / 100);
  const cents = amountCents % 100;
  return `${whole}.${cents.toString().padStart(2, '0')}`;
}

/** "12.34" -> 1234, by the digits; undefined when the text is not digits, a point and two digits (the API Pix `valor`). */
export function decimalToCents(decimal: string): number | undefined {
  const match = /^(\d{1,10})\.(\d{2})$/.exec(decimal);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number(match[2]);
}
