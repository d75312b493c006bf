/*
 * Paying by Pix: the intent is confirmed at creation and comes back with
 * its QR code and copy-and-paste code. Why a module: one flow per payment
 * method; the buyer's payment is then simulated (simulate.js).
 */
import { $ } from '../../shared/dom.js';
import { date } from './format.js';
import { beginCharge } from './order.js';

export function beginPix() {
  beginCharge('pix', ({ pix }) => {
    $('pix-qr').src = 'data:image/png;base64,' + pix.qrCodeImageBase64;
    $('pix-code').value = pix.qrCode;
    $('pix-expires').textContent = date(pix.expiresAt);
  });
}
