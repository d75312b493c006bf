/*
 * Field validation, pure. Why a module: the page decides what to show and
 * what to send from these states alone, and tests run them without a DOM.
 * Each returns {empty, complete, valid, error}, error being a message key
 * (required | incomplete | invalid | expired) that texts.js words.
 */
import { luhnValid as luhnOfDigits, MAX_YEARS_AHEAD } from '../../../src/modules/vault/card-brands.ts';
import { brandInfo, detectBrand, maxLength } from './brands.js';
import { digitsOnly } from './digits.js';
import { formatExpiry } from './format.js';

/** Luhn on a string of digits only (at least two); the server's check, without its separator tolerance. */
export function luhnValid(number) {
  const d = String(number == null ? '' : number);
  return /^\d{2,}$/.test(d) && luhnOfDigits(d);
}

export function validateNumber(value) {
  const d = digitsOnly(value);
  const brand = detectBrand(d);
  const info = brandInfo(brand);
  const lengthOk = info.lengths.indexOf(d.length) >= 0;
  const valid = lengthOk && luhnValid(d);
  // Complete once a valid length passes Luhn (a 16-digit Visa may grow to
  // 19, so a failing 16 is not yet complete) or the maximum is reached.
  // A failing number of a possible length reads "invalid" (a typo is more
  // likely than a missing digit) but is only shown once the user leaves.
  const complete = valid || d.length >= maxLength(brand);
  return {
    empty: d.length === 0,
    complete,
    valid,
    brand,
    error: valid ? null : d.length === 0 ? 'required' : complete || lengthOk ? 'invalid' : 'incomplete',
  };
}

/** now: a Date (injected so tests control time). The card is valid through the end of its month. */
export function parseExpiry(value, now) {
  const m = /^(\d{2})\/(\d{2})$/.exec(formatExpiry(value));
  const empty = digitsOnly(value).length === 0;
  if (!m) return { empty, complete: false, valid: false, error: empty ? 'required' : 'incomplete' };
  const month = +m[1];
  const year = 2000 + +m[2];
  const t = now || new Date();
  const y = t.getFullYear();
  let error = null;
  if (month < 1 || month > 12 || year > y + MAX_YEARS_AHEAD) error = 'invalid';
  else if (year < y || (year === y && month < t.getMonth() + 1)) error = 'expired';
  return { empty: false, complete: true, valid: !error, error, month, year };
}

export function validateCvv(value, brand) {
  const d = digitsOnly(value);
  const need = brandInfo(brand).cvv;
  const ok = need ? d.length === need : d.length === 3 || d.length === 4;
  const complete = ok || d.length >= (need || 4);
  return {
    empty: d.length === 0,
    complete,
    valid: ok,
    error: ok ? null : d.length === 0 ? 'required' : complete ? 'invalid' : 'incomplete',
  };
}

/** The holder name as validated and sent to the vault: trimmed, inner runs of spaces made one. */
export function normalizeHolder(value) {
  return String(value == null ? '' : value).trim().replace(/\s+/g, ' ');
}

export function validateHolder(value) {
  const v = normalizeHolder(value);
  // Letters (any script, accents included), spaces, dot, apostrophe, hyphen;
  // at least two letters. No digits: a name field must not collect a PAN.
  const ok = v.length <= 64 && /^[\p{L}\p{M} .'-]+$/u.test(v) && (v.match(/\p{L}/gu) || []).length >= 2;
  return {
    empty: v.length === 0,
    complete: ok,
    valid: ok,
    error: ok ? null : v.length === 0 ? 'required' : 'invalid',
  };
}
