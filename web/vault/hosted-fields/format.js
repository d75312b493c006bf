/*
 * How the number and expiry fields display what is typed. Why a module: the
 * same formatting runs on every keystroke (typing.js) and is tested on its
 * own; it knows the card layouts, not the DOM.
 */
import { detectBrand, maxLength } from './brands.js';
import { digitsOnly } from './digits.js';

/** Groups the digits as printed on the card: Amex 4-6-5, Diners 36 4-6-4, else 4-4-4-4-3. */
export function formatNumber(number, brand) {
  let d = digitsOnly(number);
  if (brand === undefined) brand = detectBrand(d);
  d = d.slice(0, maxLength(brand));
  // Where the printed number has a space.
  const gaps = brand === 'amex' || (brand === 'diners' && /^36/.test(d)) ? [4, 10] : [4, 8, 12, 16];
  let out = '';
  for (let i = 0; i < d.length; i++) {
    if (i > 0 && gaps.indexOf(i) >= 0) out += ' ';
    out += d.charAt(i);
  }
  return out;
}

/** "MM/AA" as typed; a lone month digit above 1 becomes "0N"; MM/YYYY (autofill) becomes MM/YY. */
export function formatExpiry(value) {
  const raw = String(value == null ? '' : value);
  let month;
  let rest;
  const m = /^\s*(\d{1,2})\s*[/\-.]\s*(\d*)/.exec(raw);
  if (m) {
    month = m[1].length === 1 ? '0' + m[1] : m[1];
    rest = m[2];
  } else {
    let d = digitsOnly(raw);
    if (d.length === 1 && d > '1') d = '0' + d;
    month = d.slice(0, 2);
    rest = d.slice(2);
  }
  if (rest.length >= 4 && rest.slice(0, 2) === '20') rest = rest.slice(2);
  rest = rest.slice(0, 2);
  return rest ? month + '/' + rest : month;
}
