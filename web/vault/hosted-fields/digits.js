/*
 * The one digit filter of the hosted fields. Why a module: formatting,
 * validation, brand detection and the card sent to the vault must all agree
 * on what the digits of a typed value are.
 */

/** The digits of any value, everything else dropped ("4111 1111-1" → "411111111"). */
export function digitsOnly(value) {
  return String(value == null ? '' : value).replace(/\D/g, '');
}
