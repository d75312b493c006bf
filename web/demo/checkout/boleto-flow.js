/*
 * Paying by boleto: the intent is confirmed at creation and comes back with
 * the digitable line and due date. Why a module: one flow per payment
 * method; the buyer's payment is then simulated (simulate.js).
 */
import { $ } from '../../shared/dom.js';
import { date, digitableLine } from './format.js';
import { beginCharge } from './order.js';

export function beginBoleto() {
  beginCharge('boleto', ({ boleto }) => {
    $('boleto-line').value = digitableLine(boleto.digitableLine);
    $('boleto-due').textContent = date(boleto.dueDate);
  });
}
