/*
 * Card installments as charged, by the service's own rule (the remainder
 * centavos on the first, src/modules/split/installments.ts, bundled in): "3x
 * de R$ 16,63" would hide the R$ 16,64 of the first. Why a module: the hosted
 * payment page, its receipt and the demo checkout word installments alike.
 */
import { splitInstallments } from '../../src/modules/split/installments.ts';

/** `n` installments of `amountCents`, worded by `t` (installmentN, installmentsFirstMore) with `money`. */
export function installmentsText(amountCents, n, t, money) {
  const parts = splitInstallments(amountCents, n);
  const first = parts[0];
  const each = parts[n - 1];
  return first === each ? t('installmentN', { n, each: money(each) }) : t('installmentsFirstMore', { first: money(first), rest: n - 1, each: money(each) });
}
