/**
 * From slices to receivables: the sale's fee shared among slices, each slice
 * cut into installments, each installment dated. Pure: the payment date comes
 * in, nothing reads the clock.
 *
 * Invariants (tested as properties): Σ gross = sale amount, Σ fee = sale fee,
 * Σ amount = amount − fee, every line has 0 ≤ fee ≤ gross, and each account
 * has exactly one line per installment.
 */
import { addDays, isValidDate } from '../../lib/sao-paulo-date.js';
import { nextBusinessDay } from './calendar.js';
import { splitInstallments } from './installments.js';
import { slicesOf, type Slice, type SplitRole, type SplitRuleInput } from './rules.js';

export { splitInstallments };

export interface ReceivableLine {
  recipientDocument: string;
  role: SplitRole;
  installment: number;
  grossAmountCents: number;
  feeCents: number;
  amountCents: number;
  expectedOn: string;
}

export type SplitPaymentMethod = 'PIX' | 'BOLETO' | 'CREDIT_CARD';

export interface ReceivablesInput {
  amountCents: number;
  feeCents: number;
  installments: number;
  paymentMethod: SplitPaymentMethod;
  sellerDocument: string;
  /** Already accepted by validateSplitRules. */
  rules: SplitRuleInput[];
  /** São Paulo calendar date (YYYY-MM-DD) the sale was paid. */
  paidOn: string;
}

const MAX_INSTALLMENTS = 12;

/**
 * The fee shared among slices in proportion to their gross, by the largest
 * remainder method on centavos: each slice first gets floor(fee × gross / Σ),
 * then the centavos left go one each to the largest fractional remainders;
 * ties go to the SELLER, then to the earlier slice. Exact integer arithmetic:
 * fee × gross reaches 10^20, past 2^53, so the products are BigInt.
 * Since fee ≤ Σ gross, no slice's fee exceeds its gross: floor(share) ≤ gross,
 * and a slice gets a leftover centavo only when its share is not whole, so
 * floor(share) + 1 ≤ gross. A slice of 0 has remainder 0 and never gets one.
 */
export function allocateFee(slices: Slice[], feeCents: number): number[] {
  if (slices.some((s) => !Number.isSafeInteger(s.grossAmountCents) || s.grossAmountCents < 0)) {
    throw new RangeError('slice amounts must be non-negative integers');
  }
  const grossTotal = slices.reduce((sum, s) => sum + BigInt(s.grossAmountCents), 0n);
  if (!Number.isSafeInteger(feeCents) || feeCents < 0 || BigInt(feeCents) > grossTotal) {
    throw new RangeError(`fee ${feeCents} must be an integer between 0 and the sum of slices ${grossTotal}`);
  }
  if (grossTotal === 0n) return slices.map(() => 0);
  const fee = BigInt(feeCents);
  const parts = slices.map((s, index) => {
    const exact = fee * BigInt(s.grossAmountCents); // share = exact / grossTotal
    return { index, seller: s.role === 'SELLER', floor: exact / grossTotal, remainder: exact % grossTotal };
  });
  let left = Number(fee - parts.reduce((sum, p) => sum + p.floor, 0n)); // < slices.length
  const byRemainder = [...parts].sort((a, b) =>
    a.remainder !== b.remainder
      ? (a.remainder > b.remainder ? -1 : 1)
      : a.seller !== b.seller
        ? (a.seller ? -1 : 1)
        : a.index - b.index,
  );
  const result = parts.map((p) => Number(p.floor));
  for (const p of byRemainder) {
    if (left === 0) break;
    result[p.index]! += 1;
    left -= 1;
  }
  return result;
}

/**
 * The fee of one slice per installment. The contract's equal division puts
 * the fee's remainder centavos on installment 1, like the gross's; when a tiny
 * slice is cut in many installments that can make installment 1's fee larger
 * than its gross (gross 12 and fee 2 in 12 installments: installment 1 would
 * be gross 1, fee 2). Then the excess centavos move to installments 2, 3, …,
 * each up to its room (gross − fee), so no line is negative. There is always
 * room: later installments carry floor(fee/n) ≤ floor(gross/n) = their gross,
 * and fee ≤ gross overall. Totals per slice are unchanged.
 */
function installmentFees(grossParts: number[], feeCents: number): number[] {
  const fees = splitInstallments(feeCents, grossParts.length);
  let excess = fees[0]! - grossParts[0]!;
  if (excess <= 0) return fees;
  fees[0] = grossParts[0]!;
  for (let k = 1; k < fees.length && excess > 0; k++) {
    const moved = Math.min(excess, grossParts[k]! - fees[k]!);
    fees[k]! += moved;
    excess -= moved;
  }
  if (excess > 0) throw new Error('fee exceeds gross of a slice'); // unreachable while allocateFee holds
  return fees;
}

/**
 * The transfer date of an installment: Pix and boleto D+1 after payment,
 * card installment n at D+30·n, each moved to the next business day.
 */
function expectedOn(paymentMethod: SplitPaymentMethod, paidOn: string, installment: number): string {
  const days = paymentMethod === 'CREDIT_CARD' ? 30 * installment : 1;
  return nextBusinessDay(addDays(paidOn, days));
}

/**
 * The receivables of a paid sale: one line per account and per installment,
 * ordered by installment, then SELLER first, then recipients in rule order.
 */
export function computeReceivables(input: ReceivablesInput): ReceivableLine[] {
  const { amountCents, feeCents, installments, paymentMethod, paidOn } = input;
  if (!Number.isInteger(installments) || installments < 1 || installments > MAX_INSTALLMENTS) {
    throw new RangeError(`installments must be 1–${MAX_INSTALLMENTS}: ${installments}`);
  }
  if (paymentMethod !== 'CREDIT_CARD' && installments !== 1) {
    throw new RangeError(`${paymentMethod} is paid in 1 installment`);
  }
  if (!isValidDate(paidOn)) throw new RangeError(`paidOn is not a YYYY-MM-DD date: ${paidOn}`);
  if (!Number.isSafeInteger(feeCents) || feeCents < 0 || feeCents > amountCents) {
    throw new RangeError(`fee must be between 0 and the sale amount: ${feeCents}`);
  }

  const slices = slicesOf(input.rules, amountCents, input.sellerDocument);
  const fees = allocateFee(slices, feeCents);
  const perSlice = slices.map((slice, i) => {
    const gross = splitInstallments(slice.grossAmountCents, installments);
    return { slice, gross, fee: installmentFees(gross, fees[i]!) };
  });

  const lines: ReceivableLine[] = [];
  for (let n = 1; n <= installments; n++) {
    const date = expectedOn(paymentMethod, paidOn, n);
    for (const { slice, gross, fee } of perSlice) {
      lines.push({
        recipientDocument: slice.recipientDocument,
        role: slice.role,
        installment: n,
        grossAmountCents: gross[n - 1]!,
        feeCents: fee[n - 1]!,
        amountCents: gross[n - 1]! - fee[n - 1]!,
        expectedOn: date,
      });
    }
  }
  return lines;
}
