/*
 * The order being paid: its amount, installments and payment method, and the
 * intent created for it. Why a module: the card, Pix and boleto flows all
 * start here (createIntent), and the order form's rules live in one place.
 */
import { api } from './api.js';
import { $, clear, node, show } from '../../shared/dom.js';
import { installmentsText } from '../../shared/installments.js';
import { money, parseAmount } from './format.js';
import { t } from './i18n.js';
import { BOLETO_MIN_CENTS, DEFAULT_AMOUNT_CENTS, METHODS, state } from './state.js';
import { clearError, lockOrder, setBusy, setStatus, showError } from './status.js';

/** The amount typed, in centavos; undefined (with the error shown) when not acceptable for the method. */
function amountCents() {
  const cents = parseAmount($('amount').value);
  const error = cents === undefined ? t('amountInvalid') : state.method === 'BOLETO' && cents < BOLETO_MIN_CENTS ? t('amountBoletoMin') : '';
  $('amount-error').textContent = error;
  show('amount-error', !!error);
  $('amount').setAttribute('aria-invalid', error ? 'true' : 'false');
  if (error) {
    $('amount').focus();
    return undefined;
  }
  return cents;
}

/** Creates the demo intent of the order (plus extra fields); rejects with null when the amount is wrong. */
export function createIntent(extra) {
  const cents = amountCents();
  if (cents === undefined) return Promise.reject(null);
  clearError();
  setBusy(true);
  setStatus(t('creating'));
  const body = { paymentMethod: state.method, amountCents: cents, ...extra };
  return api('POST', '/demo/intents', body).then(
    (intent) => {
      state.intent = intent;
      lockOrder(true);
      setBusy(false);
      setStatus('');
      return intent;
    },
    (err) => {
      setBusy(false);
      throw err;
    },
  );
}

/** Shows why a flow could not start; nothing for a wrong amount (already shown by the field). */
export function showStartError(err) {
  if (err) showError(err, state.intent !== null);
}

/**
 * Pix and boleto: the intent is confirmed at creation; fill(paymentDetails)
 * shows the charge in the panel's "-charge" part, then the buyer's payment is awaited.
 */
export function beginCharge(panel, fill) {
  createIntent({})
    .then((intent) => {
      state.transaction = intent.transaction;
      fill(intent.transaction.paymentDetails);
      show(panel + '-start', false);
      show(panel + '-charge', true);
      setStatus(t('waiting'));
    })
    .catch(showStartError);
}

export function selectMethod(method) {
  if (METHODS.indexOf(method) < 0 || state.intent) return;
  state.method = method;
  for (const m of METHODS) {
    const tab = $('tab-' + m);
    const on = m === method;
    tab.setAttribute('aria-selected', on ? 'true' : 'false');
    tab.tabIndex = on ? 0 : -1;
    show('panel-' + m, on);
  }
  clearError();
  show('amount-error', false);
}

/** The installment choices, 1x to 12x, with each installment's value for the amount typed. */
export function renderInstallments() {
  const select = $('installments');
  const current = Number(select.value) || 1;
  const cents = parseAmount($('amount').value) || DEFAULT_AMOUNT_CENTS;
  clear(select);
  for (let n = 1; n <= 12; n++) {
    const label = n === 1 ? t('installmentOne') : installmentsText(cents, n, t, money);
    const opt = node('option', label);
    opt.value = String(n);
    if (n === current) opt.selected = true;
    select.appendChild(opt);
  }
}
