/*
 * Paying by card: the page's server creates the link's card intent, the
 * vault's hosted fields (SvcVault) take the card in their frame, the page's
 * own pay button tokenizes, and the token confirms the intent. Why a module:
 * the card number never touches this page, and this is where that is wired.
 */
import { mountCardFields, unmountCardFields } from '../shared/card-fields.js';
import { $, show } from '../shared/dom.js';
import { loadSdk } from '../shared/sdk-loader.js';
import { api } from './api.js';
import { money, t } from './i18n.js';
import { showResult } from './result.js';
import { data, state } from './state.js';
import { clearError, setBusy, setStatus, showError } from './status.js';

export function unmountCard() {
  unmountCardFields(state.handle, $('card-fields'));
  state.handle = null;
}

export function renderPayButton() {
  const n = Number($('installments').value) || 1;
  const amount = money(data.amountCents);
  $('card-pay').textContent = n > 1 ? t('cardPayInstallments', { amount, n }) : t('cardPay', { amount });
}

/** After "continue": the intent answered {intentId, cardTokenization}; mount the vault's fields. */
export function beginCard(charge) {
  return loadSdk(data.vaultUrl, (url) => t('sdkUnavailable', { url })).then((SvcVault) => {
    show('checkout', false);
    show('card-step', true);
    show('card-loading', true);
    renderPayButton();
    $('card-pay').disabled = true;
    unmountCard();
    state.handle = mountCardFields(SvcVault, $('card-fields'), charge.cardTokenization, state.locale, {
      onReady: () => {
        show('card-loading', false);
        $('card-pay').disabled = false;
        if (state.handle) state.handle.focus();
      },
      onChange: () => clearError(),
      onToken: (result) => confirmCard(charge.intentId, result),
      onError: (err) => {
        setBusy(false);
        $('card-pay').disabled = false;
        showError(err);
      },
    });
  });
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

function confirmCard(intentId, result) {
  setStatus(t('processing'));
  api('POST', '/intents/' + encodeURIComponent(intentId) + '/confirm', { token: result.token })
    .then((payment) => {
      setBusy(false);
      setStatus('');
      unmountCard();
      show('card-step', false);
      showResult(payment);
    })
    .catch((err) => {
      setBusy(false);
      // The token is spent (or the link took its last payment meanwhile): the buyer starts again.
      unmountCard();
      show('card-step', false);
      show('checkout', true);
      showError(err);
    });
}
