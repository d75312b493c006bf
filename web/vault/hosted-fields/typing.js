/*
 * What happens on each keystroke: the number and expiry are re-formatted
 * with the caret kept in place, the CVV keeps digits only, and a finished
 * field moves the focus on. Why a module: caret handling is the fiddly part
 * of the form and has its own browser tests (backspace over a space, "4"
 * becoming "04").
 */
import { brandInfo, detectBrand, maxLength } from './brands.js';
import { digitsOnly } from './digits.js';
import { refresh, setStatus } from './fields.js';
import { formatExpiry, formatNumber } from './format.js';

const NEXT = { number: 'expiry', expiry: 'cvv', cvv: 'holderName' };

/** Writes a formatted value back, keeping the caret after the same number of digits. */
function rewrite(input, formatted, digitsBefore) {
  input.value = formatted;
  if (document.activeElement !== input) return;
  let pos = formatted.length;
  if (digitsBefore < digitsOnly(formatted).length) {
    pos = 0;
    for (let seen = 0; seen < digitsBefore; pos++) {
      if (/\d/.test(formatted.charAt(pos))) seen++;
    }
  }
  input.setSelectionRange(pos, pos);
}

function format(f, value) {
  return f === 'number' ? formatNumber(value) : formatExpiry(value);
}

/** The input handler of field f; page.previous holds the last formatted number and expiry. */
export function onInput(page, f, ev) {
  const input = page.inputs[f];
  const type = (ev && ev.inputType) || '';
  if (page.statusEl.className !== 'status') setStatus(page, '', false); // the user is fixing the last error
  if (f === 'number' || f === 'expiry') {
    const value = input.value;
    const caret = input.selectionStart == null ? value.length : input.selectionStart;
    let before = digitsOnly(value.slice(0, caret)).length;
    let formatted = format(f, value);
    // Backspace that removed only a separator (a space, or the slash between
    // month and year) would be undone by the formatting and leave the caret
    // stuck: remove the digit before it instead.
    if (type === 'deleteContentBackward' && formatted === page.previous[f] && before > 0) {
      const d = digitsOnly(value);
      formatted = format(f, d.slice(0, before - 1) + d.slice(before));
      before--;
    }
    // Typing the second month digit adds the slash for the user.
    if (f === 'expiry' && type.indexOf('insert') === 0 && formatted.length === 2) formatted += '/';
    // Formatting may add a digit ("4" becomes "04"): keep the caret after it.
    const added = digitsOnly(formatted).length - digitsOnly(value).length;
    rewrite(input, formatted, added > 0 ? before + added : before);
    page.previous[f] = formatted;
  } else if (f === 'cvv') {
    const c = digitsOnly(input.value).slice(0, input.maxLength > 0 ? input.maxLength : 4);
    if (c !== input.value) input.value = c;
  }
  const s = refresh(page, f);
  // The number decides the CVV length (Amex 4), so the CVV state changes too.
  if (f === 'number' && page.inputs.cvv.value) refresh(page, 'cvv');
  // Move on when a field is finished by typing at its end. A number valid
  // at 13 digits may still be a 16-digit Visa being typed: wait for 16
  // digits or the brand's maximum.
  const len = digitsOnly(input.value).length;
  const brand = detectBrand(page.inputs.number.value);
  const done = f === 'number' ? len >= 16 || len === maxLength(brand)
    : f === 'cvv' ? len === brandInfo(brand).cvv : f === 'expiry';
  if (s.valid && done && type.indexOf('insert') === 0 && input.selectionEnd === input.value.length) {
    const next = NEXT[f];
    if (next && !page.inputs[next].value) page.inputs[next].focus();
  }
}
