/*
 * The four card fields on the page: their states, error lines, the brand
 * label and the form's busy / status display. Why a module: typing.js and
 * submit.js both re-render fields, and this is where a field's state is
 * reported to the parent (never its value).
 */
import { brandInfo } from './brands.js';
import { parseExpiry, validateCvv, validateHolder, validateNumber } from './validate.js';

export const FIELDS = ['number', 'expiry', 'cvv', 'holderName'];

/** The state of every field, and the brand, from what is typed now. */
export function states(page) {
  const { inputs } = page;
  const number = validateNumber(inputs.number.value); // detects the brand once, for the CVV too
  return {
    number,
    expiry: parseExpiry(inputs.expiry.value),
    cvv: validateCvv(inputs.cvv.value, number.brand),
    holderName: validateHolder(inputs.holderName.value),
    brand: number.brand,
  };
}

/** Shows the message of error key (or none) under field f. */
export function showError(page, f, key) {
  const el = document.getElementById(f + '-error');
  const text = key ? page.T.err[f][key] || page.T.err[f].invalid : '';
  if (el.textContent !== text) el.textContent = text;
  page.inputs[f].setAttribute('aria-invalid', key ? 'true' : 'false');
}

/** Re-renders one field's error and reports its state (never its value) to the parent. */
export function refresh(page, f) {
  if (page.result) return {}; // saved: the fields only show a masked summary
  const all = states(page);
  const s = all[f];
  // Errors appear once the user left the field, or when a complete value
  // is wrong (e.g. Luhn fails at full length); "incomplete" waits for blur.
  showError(page, f, s.error && (page.touched[f] || (s.complete && !s.valid)) ? s.error : null);
  const info = brandInfo(all.brand);
  page.brandEl.textContent = info.name;
  page.brandEl.setAttribute('aria-label', info.name ? page.T.brand + info.name : '');
  page.inputs.cvv.maxLength = info.cvv || 4;
  const msg = {
    type: 'change',
    field: f,
    empty: s.empty,
    complete: s.complete,
    valid: s.valid,
    brand: all.brand,
    formComplete: FIELDS.every((k) => all[k].valid),
  };
  const key = JSON.stringify(msg);
  if (page.lastSent[f] !== key) {
    page.lastSent[f] = key;
    page.post(msg);
  }
  return s;
}

export function setStatus(page, text, isError) {
  page.statusEl.textContent = text;
  page.statusEl.className = isError ? 'status status-error' : 'status';
}

export function setBusy(page, on) {
  page.busy = on;
  page.button.disabled = on || page.locked;
  page.form.setAttribute('aria-busy', on ? 'true' : 'false');
  FIELDS.forEach((f) => {
    page.inputs[f].readOnly = on || page.locked;
  });
}
