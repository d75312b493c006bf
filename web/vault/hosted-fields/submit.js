/*
 * Saving the card: check every field, fetch the vault's key, encrypt, call
 * tokenize, and hand the parent {token, brand, last4} or a coded error. Why
 * a module: this is the path card digits take out of the page (encrypted,
 * to the vault only), kept in one readable sequence.
 */
import { digitsOnly } from './digits.js';
import { FIELDS, refresh, setBusy, setStatus, showError, states } from './fields.js';
import { buildJwe } from './jwe.js';
import { redact } from './messaging.js';
import { normalizeHolder } from './validate.js';
import { errorCode, findKey, tokenize } from './vault-api.js';

/** Server error fields → the field of this form that shows them. */
const SERVER_FIELD = { number: 'number', holderName: 'holderName', expMonth: 'expiry', expYear: 'expiry', cvv: 'cvv' };

function fail(page, code, message, details) {
  const text = page.T.code[code] || page.T.code.PROVIDER_ERROR;
  setStatus(page, text, true);
  const msg = { type: 'error', code, message: redact(message || text) };
  if (details && details.length) msg.details = details;
  page.post(msg);
}

function lockSaved(page, res) {
  page.result = res;
  page.locked = true;
  // Drop the digits from the page once the vault holds them: the number
  // shows only its last four, the CVV is erased.
  page.inputs.number.value = '•••• ' + res.last4;
  page.inputs.cvv.value = '';
  page.inputs.cvv.placeholder = '•••';
  page.form.className = 'saved';
  page.button.hidden = true;
  setBusy(page, false);
  setStatus(page, page.T.saved, false);
}

/** The vault's field errors, shown under their fields and listed (redacted) for the parent. */
function fieldErrors(page, body) {
  const out = [];
  if (!Array.isArray(body.details)) return out;
  for (const d of body.details) {
    const f = d && Object.prototype.hasOwnProperty.call(SERVER_FIELD, d.field) ? SERVER_FIELD[d.field] : null;
    if (f && !out.some((x) => x.field === f)) {
      showError(page, f, 'invalid');
      out.push({ field: f, message: typeof d.message === 'string' ? redact(d.message) : page.T.err[f].invalid });
    }
  }
  return out;
}

export async function submit(page) {
  const { params, inputs, T } = page;
  if (!params.ok) return;
  if (page.result) {
    const { token, brand, last4 } = page.result;
    return page.post({ type: 'token', token, brand, last4 });
  }
  if (page.busy || page.locked) return;
  const all = states(page);
  const details = [];
  FIELDS.forEach((f) => {
    page.touched[f] = true;
    refresh(page, f);
    if (!all[f].valid) details.push({ field: f, message: T.err[f][all[f].error] || T.err[f].invalid });
  });
  // Invalid data never reaches the vault.
  if (details.length) {
    inputs[details[0].field].focus();
    return fail(page, 'VALIDATION_ERROR', T.code.VALIDATION_ERROR, details);
  }
  setBusy(page, true);
  setStatus(page, T.busy, false);
  let r;
  try {
    const jwk = await findKey(params.keyId);
    if (!jwk) throw { code: 'SERVICE_UNAVAILABLE', message: 'Encryption key ' + params.keyId + ' is not published by the vault' };
    const card = JSON.stringify({
      number: digitsOnly(inputs.number.value),
      holderName: normalizeHolder(inputs.holderName.value),
      expMonth: all.expiry.month,
      expYear: all.expiry.year,
      cvv: digitsOnly(inputs.cvv.value),
    });
    // Encrypted afresh on every submit (the vault takes a JWE once), bound to this ticket.
    r = await tokenize(params.ticket, params.keyId, await buildJwe(jwk, card, params.keyId, params.ticket), params.locale);
  } catch (e) {
    setBusy(page, false);
    // The frame's own words for the code, in its language: the thrown message is English, for nobody on the page.
    return fail(page, e && typeof e.code === 'string' ? e.code : 'SERVICE_UNAVAILABLE', '');
  }
  const b = r.body || {};
  if (r.ok && typeof b.token === 'string' && /^\d{4}$/.test(b.last4)) {
    const res = { token: b.token, brand: typeof b.brand === 'string' ? b.brand : '', last4: b.last4 };
    lockSaved(page, res);
    // Only these three fields leave the frame.
    page.post({ type: 'token', token: res.token, brand: res.brand, last4: res.last4 });
    return;
  }
  const code = errorCode(r);
  // A dead ticket cannot succeed later: keep the form read-only.
  if (code === 'TICKET_EXPIRED') page.locked = true;
  setBusy(page, false);
  fail(page, code, typeof b.message === 'string' ? b.message : '', code === 'VALIDATION_ERROR' ? fieldErrors(page, b) : []);
}
