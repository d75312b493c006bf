/**
 * Reversals (refunds and chargebacks) of a paid sale's receivables. Pure: the
 * lines come in, the changes go out; nothing reads the clock.
 *
 * The fee is returned pro rata (as Pagar.me does): after reversals totalling R
 * of a sale of amount A whose fee was F, the fee kept is F − floor(F × R / A),
 * computed on the cumulative R so that reversing everything returns all of F.
 *
 * A reversal of r centavos returns f of fee (the drop in the fee kept) and
 * n = r − f of net. Each slice (one account's lines) gives back its share of
 * f in proportion to its remaining fee, and its share of n in proportion to
 * its remaining net, both by the largest-remainder method of the fees
 * (allocateFee); so the gross each slice gives back, its fee share plus its
 * net share, follows its remaining gross within a centavo or two. Why not
 * share the gross first and then the fee: near the end of a sale the centavo
 * of gross left and the centavo of fee left may fall on different slices, and
 * a slice would keep a fee larger than its gross (a negative net). Sharing fee
 * and net apart keeps, for every slice, 0 ≤ fee ≤ its fee before and
 * 0 ≤ net ≤ its net before; a full reversal takes every slice to zero.
 *
 * Within a slice the share is taken from its PENDING sale lines, the latest
 * installment first (the money furthest away goes back first; the nearest
 * payments the seller counts on stay whole); what those lines cannot cover
 * (they were PAID, i.e. transferred) becomes one negative adjustment line.
 */
import { addDays } from '../../lib/sao-paulo-date.js';
import { allocateFee } from './allocate.js';
import { nextBusinessDay } from './calendar.js';
import type { SplitRole } from './rules.js';

/** The fee kept after reversals totalling `reversedCents` of a sale of `amountCents` whose fee was `saleFeeCents`. */
export function feeKeptAfter(saleFeeCents: number, amountCents: number, reversedCents: number): number {
  if (reversedCents < 0 || reversedCents > amountCents) throw new RangeError(`reversed ${reversedCents} is outside 0..${amountCents}`);
  return saleFeeCents - Number((BigInt(saleFeeCents) * BigInt(reversedCents)) / BigInt(amountCents));
}

/** One receivable line as the reversal sees it. */
export interface ReversalLine {
  id: string;
  recipientDocument: string;
  role: SplitRole;
  installment: number;
  status: 'PENDING' | 'PAID';
  /** Adjustment lines of earlier reversals count in a slice's balance but are never taken from. */
  adjustment: boolean;
  feeCents: number;
  amountCents: number;
}

/** A line whose fee and amount go down (gross follows: fee + amount). */
export interface LineChange {
  id: string;
  feeCents: number;
  amountCents: number;
}

/** What a slice gives back beyond its PENDING lines: a negative line for that account. */
interface AdjustmentLine {
  recipientDocument: string;
  role: SplitRole;
  feeCents: number;
  amountCents: number;
}

interface Reversal {
  changes: LineChange[];
  adjustments: AdjustmentLine[];
}

interface SliceBalance {
  recipientDocument: string;
  role: SplitRole;
  feeCents: number;
  amountCents: number;
  lines: ReversalLine[];
}

function slicesOfLines(lines: ReversalLine[]): SliceBalance[] {
  const slices = new Map<string, SliceBalance>();
  for (const line of lines) {
    let slice = slices.get(line.recipientDocument);
    if (!slice) {
      slice = { recipientDocument: line.recipientDocument, role: line.role, feeCents: 0, amountCents: 0, lines: [] };
      slices.set(line.recipientDocument, slice);
    }
    slice.feeCents += line.feeCents;
    slice.amountCents += line.amountCents;
    slice.lines.push(line);
  }
  return [...slices.values()];
}

/** Shares `total` among slices in proportion to `weight` (largest remainder, ties to the seller). */
function share(slices: SliceBalance[], total: number, weight: (s: SliceBalance) => number): number[] {
  return allocateFee(slices.map((s) => ({ recipientDocument: s.recipientDocument, role: s.role, grossAmountCents: weight(s) })), total);
}

/**
 * The changes that give back `feeCents` of fee and `amountCents` of net from
 * a sale's lines (the fee and net its reversal returns: see the file's
 * comment). Throws when they exceed what the lines still hold.
 */
export function reverseLines(lines: ReversalLine[], feeCents: number, amountCents: number): Reversal {
  const slices = slicesOfLines(lines);
  const fees = share(slices, feeCents, (s) => s.feeCents);
  const nets = share(slices, amountCents, (s) => s.amountCents);
  const changes: LineChange[] = [];
  const adjustments: AdjustmentLine[] = [];
  slices.forEach((slice, i) => {
    let fee = fees[i]!;
    let net = nets[i]!;
    const takeable = slice.lines.filter((l) => l.status === 'PENDING' && !l.adjustment).sort((a, b) => b.installment - a.installment);
    for (const line of takeable) {
      if (fee === 0 && net === 0) break;
      const fromFee = Math.min(fee, line.feeCents);
      const fromNet = Math.min(net, line.amountCents);
      if (fromFee === 0 && fromNet === 0) continue;
      changes.push({ id: line.id, feeCents: line.feeCents - fromFee, amountCents: line.amountCents - fromNet });
      fee -= fromFee;
      net -= fromNet;
    }
    if (fee > 0 || net > 0) adjustments.push({ recipientDocument: slice.recipientDocument, role: slice.role, feeCents: -fee, amountCents: -net });
  });
  return { changes, adjustments };
}

/** When an adjustment line is due: the next business day after the reversal (São Paulo calendar), when it is taken from the account. */
export const adjustmentDueOn = (reversedOn: string): string => nextBusinessDay(addDays(reversedOn, 1));
