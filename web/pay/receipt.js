/*
 * The receipt (comprovante) of a paid sale (GET /pay/receipts/{trx}/{token}),
 * bundled by scripts/build-web.mjs into /pay/assets/receipt.js. The server
 * renders the receipt into the page; this script words it in the page's
 * language and wires print, copy and WhatsApp. Why a module: the receipt is
 * its own page, sharing the payment page's texts and look.
 */
import { installCopyButtons } from '../shared/copy.js';
import { $, show } from '../shared/dom.js';
import { taxId } from '../shared/format.js';
import { applyPageTexts, rememberedLocale, rememberLocale } from '../shared/i18n.js';
import { date, installmentsText, methodName, money, t } from './i18n.js';
import { data, state } from './state.js';

const LOCALE_KEY = 'svc-pay-locale';

function render() {
  applyPageTexts(t, state.locale);
  document.title = t('receiptTitle') + (data.receipt ? ' · ' + data.receipt.sellerName : '');
  const found = data.status === 'PAID';
  show('receipt', found);
  show('receipt-missing', !found);
  if (!found) return;
  const r = data.receipt;
  $('seller-name').textContent = r.sellerName;
  $('receipt-amount').textContent = money(r.amountCents);
  let method = methodName(r.paymentMethod);
  if (r.card) method += ' · ' + r.card.brand + ' •••• ' + r.card.last4;
  if (r.paymentMethod === 'CREDIT_CARD' && r.installments > 1) method += ' · ' + installmentsText(r.amountCents, r.installments);
  $('receipt-method').textContent = method;
  $('receipt-paid-at').textContent = date(r.paidAt);
  $('receipt-seller').textContent = r.sellerName + ' · ' + taxId(r.sellerDocument);
  $('receipt-buyer').textContent = r.buyerName + ' · ' + r.buyerDocument;
  $('receipt-description').textContent = r.description || '—';
  $('receipt-id').textContent = r.transactionId;
  $('receipt-refunded').textContent = r.refundedCents > 0 ? t('receiptRefunded', { amount: money(r.refundedCents) }) : '';
  show('receipt-refunded', r.refundedCents > 0);
  $('receipt-url').value = data.url;
  $('receipt-whatsapp').href = 'https://wa.me/?text=' + encodeURIComponent(t('receiptShare', { url: data.url }));
}

function init() {
  state.locale = rememberedLocale(LOCALE_KEY) === 'en' ? 'en' : 'pt-BR';
  render();
  $('lang-toggle').addEventListener('click', () => {
    state.locale = state.locale === 'en' ? 'pt-BR' : 'en';
    rememberLocale(LOCALE_KEY, state.locale);
    render();
  });
  if (data.status === 'PAID') {
    $('receipt-print').addEventListener('click', () => window.print());
    installCopyButtons(() => t('copied'));
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
else init();
