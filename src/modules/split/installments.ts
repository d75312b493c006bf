/**
 * The contract's installment rule, alone in a file that imports nothing: the
 * receivables are cut by it (allocate.ts), and the hosted payment page and
 * the dashboard bundle it to show the installments as charged.
 */

/** `total` in `installments` equal parts; the remainder centavos go to installment 1 (the contract's rule). */
export function splitInstallments(total: number, installments: number): number[] {
  if (!Number.isSafeInteger(total) || total < 0) throw new RangeError(`invalid total: ${total}`);
  if (!Number.isInteger(installments) || installments < 1) throw new RangeError(`invalid installments: ${installments}`);
  const base = Math.floor(total / installments);
  const parts = new Array<number>(installments).fill(base);
  parts[0] = base + (total % installments);
  return parts;
}
