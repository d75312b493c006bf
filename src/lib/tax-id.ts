/**
 * Brazilian tax ids, mod-11 check digits: the CPF (people, 11 digits) and the
 * CNPJ (companies, 14 characters). Since IN RFB 2.229/2024 a CNPJ's first 12
 * characters may be capital letters as well as digits (the alphanumeric CNPJ,
 * issued from July 2026); its 2 check digits stay numeric, computed with the
 * same weights on each character's ASCII code minus 48 (so a digit counts as
 * itself, and A as 17 … Z as 42). Numeric CNPJs already issued are unchanged.
 * Ids are taken without punctuation: dots, slash and dash are refused, not stripped.
 */

import { PROBLEMS } from './i18n/messages/problems.js';
import type { Text } from './i18n/text.js';

/** A CPF (11 digits) or a CNPJ (12 digits or capital letters, then 2 digits): the shape, not the check digits. */
export const TAX_ID_PATTERN = '^([0-9]{11}|[0-9A-Z]{12}[0-9]{2})$';

const TAX_ID_RE = new RegExp(TAX_ID_PATTERN);

function checkDigit(chars: string, weights: number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (chars.charCodeAt(i) - 48) * weights[i]!;
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

export function isValidCpf(doc: string): boolean {
  if (!/^\d{11}$/.test(doc) || /^(\d)\1{10}$/.test(doc)) return false;
  const d1 = checkDigit(doc, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = checkDigit(doc, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return d1 === Number(doc[9]) && d2 === Number(doc[10]);
}

/** A numeric or an alphanumeric CNPJ with valid check digits. */
export function isValidCnpj(doc: string): boolean {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(doc) || /^(\d)\1{13}$/.test(doc)) return false;
  const d1 = checkDigit(doc, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = checkDigit(doc, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return d1 === Number(doc[12]) && d2 === Number(doc[13]);
}

/** A CPF or a CNPJ with valid check digits. */
export function isValidTaxId(doc: string): boolean {
  return doc.length === 11 ? isValidCpf(doc) : isValidCnpj(doc);
}

/** Why `doc` is not a tax id (its shape, or its check digits), or undefined when it is one. */
export function taxIdProblem(doc: string): Text | undefined {
  if (!TAX_ID_RE.test(doc)) return PROBLEMS.taxIdShape;
  return isValidTaxId(doc) ? undefined : PROBLEMS.taxIdCheckDigits;
}
