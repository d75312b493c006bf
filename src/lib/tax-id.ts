/** Brazilian tax ids: CPF (11 digits, people) and CNPJ (14 digits, companies), mod-11 check digits. */

function checkDigit(digits: string, weights: number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += Number(digits[i]) * weights[i]!;
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

export function isValidCpf(doc: string): boolean {
  if (!/^\d{11}$/.test(doc) || /^(\d)\1{10}$/.test(doc)) return false;
  const d1 = checkDigit(doc, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = checkDigit(doc, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return d1 === Number(doc[9]) && d2 === Number(doc[10]);
}

export function isValidCnpj(doc: string): boolean {
  if (!/^\d{14}$/.test(doc) || /^(\d)\1{13}$/.test(doc)) return false;
  const d1 = checkDigit(doc, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = checkDigit(doc, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return d1 === Number(doc[12]) && d2 === Number(doc[13]);
}

/** A CPF or a CNPJ with valid check digits. */
export function isValidTaxId(doc: string): boolean {
  return doc.length === 11 ? isValidCpf(doc) : isValidCnpj(doc);
}
