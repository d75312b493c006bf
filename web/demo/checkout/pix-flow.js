/*
 * Paying by Pix: the intent is confirmed at creation and comes back with
 * its QR code and copy-and-paste code. Why a module: one flow per payment
 * method; the buyer's payment is then simulated (simulate.js).
 */
import { $, show } from './dom.js';
import { date } from './format.js';
import { t } from './i18n.js';
import { createIntent } from './order.js';
import { state } from './state.js';
import { setStatus, showError } from './status.js';

export function beginPix() {
  createIntent({})
    .then((intent) => {
      const trx = intent.transaction;
      state.transaction = trx;
      const pix = trx.paymentDetails.pix;
      $('pix-qr').src = 'data:image/png;base64,' + pix.qrCodeImageBase64;
      $('pix-code').value = pix.qrCode;
      $('pix-expires').textContent = date(pix.expiresAt);
      show('pix-start', false);
      show('pix-charge', true);
      setStatus(t('waiting'));
    })
    .catch((err) => {
      if (err) showError(err, state.intent !== null);
    });
}
