/*
 * The outcome of a payment: paid, refused or canceled, the transaction's
 * facts and its receivables (who gets how much, and when). Why a module:
 * every flow ends here, and a language change re-renders it.
 */
import { $, clear, node, show } from '../../shared/dom.js';
import { installmentsText } from '../../shared/installments.js';
import { date, methodName, money, taxId } from './format.js';
import { ownText, t } from './i18n.js';
import { state } from './state.js';

export function showResult(trx) {
  state.transaction = trx;
  const result = $('result');
  result.classList.remove('paid', 'failed');
  const card = trx.paymentDetails && trx.paymentDetails.card;
  let refusal = false;
  if (trx.status === 'PAID') {
    result.classList.add('paid');
    $('result-title').textContent = t('paidTitle');
    $('result-text').textContent = t('paidText');
  } else if (trx.status === 'FAILED') {
    result.classList.add('failed');
    $('result-title').textContent = t('failedTitle');
    const code = card && card.refusalCode;
    // The acquirer's refusalMessage is English: the page words the code in its own language.
    $('result-text').textContent = (code && ownText('refusal_' + code)) || t('failedText');
    if (code) {
      $('result-refusal').textContent = t('refusalCode', { code });
      refusal = true;
    }
  } else {
    result.classList.add('failed');
    $('result-title').textContent = t('canceledTitle');
    $('result-text').textContent = t('canceledText');
  }
  show('result-refusal', refusal);
  $('result-id').textContent = trx.id;
  let method = methodName(trx.paymentMethod);
  if (card && card.last4) method += ' · ' + card.brand + ' •••• ' + card.last4;
  if (trx.paymentMethod === 'CREDIT_CARD') method += ' · ' + (trx.installments > 1 ? installmentsText(trx.amountCents, trx.installments, t, money) : '1x');
  $('result-method').textContent = method;
  $('result-amount').textContent = money(trx.amountCents);
  $('result-fee').textContent = money(trx.feeCents);
  $('result-net').textContent = money(trx.netAmountCents);
  // A sale that took no money (refused, canceled) has no fee and no net to show: the rows are hidden, not "R$ 0,00".
  for (const id of ['result-fee', 'result-net']) {
    const value = $(id);
    value.hidden = trx.status !== 'PAID';
    value.previousElementSibling.hidden = trx.status !== 'PAID';
  }
  renderReceivables((trx.split && trx.split.receivables) || []);
  show('result', true);
  $('result-title').focus();
}

function renderReceivables(rows) {
  const body = $('receivables-body');
  clear(body);
  for (const r of rows) {
    const tr = document.createElement('tr');
    const who = node('td', taxId(r.recipientDocument), 'recipient');
    who.appendChild(node('span', r.role === 'SELLER' ? t('roleSeller') : t('roleRecipient'), 'role'));
    tr.appendChild(who);
    tr.appendChild(node('td', String(r.installment)));
    tr.appendChild(node('td', money(r.amountCents), 'num'));
    tr.appendChild(node('td', date(r.expectedOn)));
    tr.appendChild(node('td', r.status === 'PAID' ? t('statusPaid') : t('statusPending')));
    body.appendChild(tr);
  }
  show('receivables', rows.length > 0);
}
