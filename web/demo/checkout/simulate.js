/*
 * "Simulate payment" for a Pix or boleto charge: plays the buyer's bank
 * through the sandbox pay route. Why a module: both waiting flows end here,
 * and it is the one sandbox-only action of the page.
 */
import { api } from './api.js';
import { show } from '../../shared/dom.js';
import { t } from './i18n.js';
import { showResult } from './result.js';
import { state } from './state.js';
import { clearError, setBusy, setStatus, showError } from './status.js';

export function simulatePayment() {
  if (!state.transaction || state.busy) return;
  clearError();
  setBusy(true);
  setStatus(t('paying'));
  api('POST', '/demo/transactions/' + encodeURIComponent(state.transaction.id) + '/pay')
    .then((transaction) => {
      setBusy(false);
      setStatus('');
      show(state.method === 'PIX' ? 'pix-charge' : 'boleto-charge', false);
      showResult(transaction);
    })
    .catch((err) => {
      setBusy(false);
      showError(err, true);
    });
}
