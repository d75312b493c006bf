/*
 * Paying by boleto: the intent is confirmed at creation and comes back with
 * the digitable line and due date. Why a module: one flow per payment
 * method; the buyer's payment is then simulated (simulate.js).
 */
import { $, show } from './dom.js';
import { date, digitableLine } from './format.js';
import { t } from './i18n.js';
import { createIntent } from './order.js';
import { state } from './state.js';
import { setStatus, showError } from './status.js';

export function beginBoleto() {
  createIntent({})
    .then((intent) => {
      const trx = intent.transaction;
      state.transaction = trx;
      const boleto = trx.paymentDetails.boleto;
      $('boleto-line').value = digitableLine(boleto.digitableLine);
      $('boleto-due').textContent = date(boleto.dueDate);
      show('boleto-start', false);
      show('boleto-charge', true);
      setStatus(t('waiting'));
    })
    .catch((err) => {
      if (err) showError(err, state.intent !== null);
    });
}
