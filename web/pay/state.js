/*
 * The payment link page's data and its one mutable state. Why a module: the
 * form, the three payment flows and the result all read and change the same
 * payment (its method, intent, sale and the mounted card fields).
 */

/** The link as the server rendered it into the page (status, amount, methods, CSRF token…). */
export const data = JSON.parse(document.getElementById('page-data').textContent);

/** The payment tabs, in their order on the page. */
export const METHODS = ['CREDIT_CARD', 'PIX', 'BOLETO'];

export const state = {
  locale: 'pt-BR',
  method: null,
  busy: false,
  buyer: null, // what was sent with the intent (the printable boleto names the payer)
  payment: null, // the sale as /pay/{id}/transactions/{trx} shows it
  handle: null, // SvcVault mount handle
  poll: null, // timer of the status poll
};
