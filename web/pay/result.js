/*
 * The outcome of a payment: paid, refused or expired, with what was paid.
 * Why a module: every flow ends here, and a language change re-renders it.
 */
import { $, show } from '../shared/dom.js';
import { installmentsText, methodName, money, ownText, t } from './i18n.js';
import { api } from './api.js';
import { data, state } from './state.js';

/** A paid sale's receipt: its address (with its token) comes from the server once the sale is paid. */
function showReceiptLink(payment) {
  const link = $('result-receipt');
  if (payment.status !== 'PAID') return show(link, false);
  if (link.getAttribute('href')) return show(link, true);
  api('GET', '/transactions/' + encodeURIComponent(payment.transactionId) + '/receipt').then(
    (receipt) => {
      link.href = receipt.url;
      show(link, true);
    },
    // Without its address the page still says the payment is confirmed; the seller can send the receipt.
    () => undefined,
  );
}

export function showResult(payment) {
  state.payment = payment;
  const result = $('result');
  result.classList.remove('paid', 'failed');
  const card = payment.card;
  if (payment.status === 'PAID') {
    result.classList.add('paid');
    $('result-title').textContent = t('paidTitle');
    $('result-text').textContent = t('paidText', { seller: data.sellerName });
  } else if (payment.status === 'FAILED') {
    result.classList.add('failed');
    $('result-title').textContent = t('failedTitle');
    $('result-text').textContent = (card && card.refusalCode && ownText('refusal_' + card.refusalCode)) || t('failedText');
  } else {
    result.classList.add('failed');
    $('result-title').textContent = t('canceledTitle');
    $('result-text').textContent = t('canceledText');
  }
  let method = methodName(payment.paymentMethod);
  if (card && card.last4) method += ' · ' + card.brand + ' •••• ' + card.last4;
  if (payment.paymentMethod === 'CREDIT_CARD' && payment.installments > 1) method += ' · ' + installmentsText(payment.amountCents, payment.installments);
  $('result-method').textContent = method;
  $('result-amount').textContent = money(payment.amountCents);
  $('result-id').textContent = payment.transactionId;
  const pill = $('result-state');
  pill.className = 'pill ' + (payment.status === 'PAID' ? 'paid' : 'over');
  pill.textContent = payment.status === 'PAID' ? t('statePaid') : payment.status === 'FAILED' ? t('stateRefused') : t('stateCanceled');
  show('result-retry', payment.status !== 'PAID');
  showReceiptLink(payment);
  show('result', true);
  $('result-title').focus();
}
