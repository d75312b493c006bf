/**
 * The fee of a sale, from the company's fee plan. Rates are basis points; the
 * fee is rounded half-up to the centavo and never exceeds the sale amount.
 */
import type { FeePlan } from '../../db/types.js';
import { percentOfHalfUp } from '../../lib/money.js';

export const DEFAULT_FEE_PLAN: FeePlan = {
  pixBp: 99,
  boletoFlatCents: 349,
  card1Bp: 349,
  card2to6Bp: 399,
  card7to12Bp: 449,
};

export type PaymentMethod = 'CREDIT_CARD' | 'PIX' | 'BOLETO';

export function saleFeeCents(plan: FeePlan, method: PaymentMethod, installments: number, amountCents: number): number {
  let fee: number;
  if (method === 'BOLETO') fee = plan.boletoFlatCents;
  else if (method === 'PIX') fee = percentOfHalfUp(amountCents, plan.pixBp);
  else if (installments <= 1) fee = percentOfHalfUp(amountCents, plan.card1Bp);
  else if (installments <= 6) fee = percentOfHalfUp(amountCents, plan.card2to6Bp);
  else fee = percentOfHalfUp(amountCents, plan.card7to12Bp);
  return Math.min(fee, amountCents);
}
