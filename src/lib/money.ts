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

/** "1234" -> "12.34": the decimal form used by the Pix BR Code amount field. */
export function centsToDecimal(amountCents: number): string {
  const whole = Math.floor(amountCents / 100);
  const cents = amountCents % 100;
  return `${whole}.${cents.toString().padStart(2, '0')}`;
}
