/*
 * Paying by card: create the intent, load the vault's SDK, mount its hosted
 * fields, tokenize with the page's own pay button, confirm with the token.
 * Why a module: this is the flow that shows a seller how the vault keeps the
 * card number out of their page and server (the test cards: shared/test-cards.js).
 */
import { api } from './api.js';
import { mountCardFields, unmountCardFields } from '../../shared/card-fields.js';
import { $, show } from '../../shared/dom.js';
import { renderTestCards as renderShared } from '../../shared/test-cards.js';
import { money } from './format.js';
import { t } from './i18n.js';
import { createIntent, showStartError } from './order.js';
import { showResult } from './result.js';
import { loadSdk } from './sdk-loader.js';
import { state } from './state.js';
import { clearError, setBusy, setStatus, showError } from './status.js';

export function unmountCard() {
  unmountCardFields(state.handle, $('card-fields'));
  state.handle = null;
}

export function beginCard() {
  const installments = Number($('installments').value) || 1;
  createIntent({ installments })
    .then((intent) => loadSdk().then((SvcVault) => ({ intent, SvcVault })))
    .then((r) => {
      const tk = r.intent.cardTokenization;
      show('card-start', false);
      show('card-form', true);
      show('card-loading', true);
      renderPayButton();
      $('card-pay').disabled = true;
      unmountCard();
      state.handle = mountCardFields(r.SvcVault, $('card-fields'), tk, state.locale, {
        onReady: () => {
          show('card-loading', false);
          $('card-pay').disabled = false;
          if (state.handle) state.handle.focus();
        },
        onChange: () => {
          if (!$('error').hidden && $('error-retry').hidden) clearError();
        },
        onToken: (result) => confirmCard(r.intent, result),
        onError: (err) => {
          setBusy(false);
          $('card-pay').disabled = false;
          // Field errors can be fixed in place; an expired ticket or a vault failure needs a new intent.
          showError(err, err.code === 'TICKET_EXPIRED' || err.code === 'PROVIDER_ERROR' || err.code === 'RATE_LIMITED');
        },
      });
    })
    .catch(showStartError);
}

export function renderPayButton() {
  const intent = state.intent;
  if (!intent || intent.paymentMethod !== 'CREDIT_CARD') return;
  const amount = money(intent.amountCents);
  $('card-pay').textContent = intent.installments > 1 ? t('cardPayInstallments', { amount, n: intent.installments }) : t('cardPay', { amount });
}

/** The page's pay button: the frame validates, encrypts and tokenizes; onToken / onError follow. */
export function submitCard() {
  if (!state.handle || state.busy) return;
  clearError();
  setBusy(true);
  state.handle.tokenize().catch(() => {
    /* reported through onError */
  });
}

function confirmCard(intent, result) {
  clearError();
  setBusy(true);
  setStatus(t('processing') + ' (' + result.brand + ' •••• ' + result.last4 + ')');
  api('POST', '/demo/intents/' + encodeURIComponent(intent.id) + '/confirm', { token: result.token })
    .then((transaction) => {
      setBusy(false);
      setStatus('');
      unmountCard();
      show('card-form', false);
      showResult(transaction);
    })
    .catch((err) => {
      setBusy(false);
      // The token is spent or the intent failed (e.g. 502 PROVIDER_ERROR): start again with a new intent.
      $('card-pay').disabled = true;
      showError(err, true);
    });
}

export function renderTestCards() {
  renderShared($('test-cards'), t);
}
