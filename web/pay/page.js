/*
 * The page itself: the link's summary, or why it takes no payment; the
 * language; the method tabs and installments; "continue", which checks the
 * buyer and starts the chosen flow. Why a module: it wires the flows to the
 * page's controls and is the only code run on load.
 */
import { installCopyButtons } from '../shared/copy.js';
import { renderTestCards } from '../shared/test-cards.js';
import { $, clear, node, show } from '../shared/dom.js';
import { applyPageTexts, rememberedLocale, rememberLocale } from '../shared/i18n.js';
import { api } from './api.js';
import { installMasks, readBuyer, renderStates } from './buyer-form.js';
import { beginCard, renderPayButton, submitCard, unmountCard } from './card.js';
import { relabelCharge, showCharge, simulatePayment } from './charge.js';
import { installmentsText, money, t } from './i18n.js';
import { showResult } from './result.js';
import { data, METHODS, state } from './state.js';
import { clearError, setBusy, setStatus, showError } from './status.js';
import { renderUnavailable } from './unavailable.js';

const LOCALE_KEY = 'svc-pay-locale';

function allowed() {
  return METHODS.filter((m) => (data.paymentMethods || []).indexOf(m) >= 0);
}

function selectMethod(method) {
  state.method = method;
  for (const m of allowed()) {
    const on = m === method;
    $('tab-' + m).setAttribute('aria-selected', on ? 'true' : 'false');
    $('tab-' + m).tabIndex = on ? 0 : -1;
    show('panel-' + m, on);
  }
  showCardFooter(method === 'CREDIT_CARD');
  relabelSubmit();
  clearError();
}

/** The footer speaks of card data: said on the card's pages, not on a Pix's or a boleto's. */
function showCardFooter(on) {
  show('footer', on);
}

function relabelSubmit() {
  const key = state.method === 'PIX' ? 'submitPix' : state.method === 'BOLETO' ? 'submitBoleto' : 'submitCard';
  $('submit').textContent = t(key);
}

/** 1x up to the link's maxInstallments, each with its value. */
function renderInstallments() {
  const select = $('installments');
  const current = Number(select.value) || 1;
  clear(select);
  for (let n = 1; n <= (data.maxInstallments || 1); n++) {
    const opt = node('option', n === 1 ? t('installmentOne', { each: money(data.amountCents) }) : installmentsText(data.amountCents, n));
    opt.value = String(n);
    if (n === current) opt.selected = true;
    select.appendChild(opt);
  }
  show('installments-field', (data.maxInstallments || 1) > 1);
}

function applyLocale(locale) {
  state.locale = locale === 'en' ? 'en' : 'pt-BR';
  applyPageTexts(t, state.locale);
  document.title = t('pageTitle') + (data.sellerName ? ' · ' + data.sellerName : '');
  if (data.amountCents !== undefined) $('amount').textContent = money(data.amountCents);
  renderUnavailable();
  if (data.sandbox) renderTestCards($('test-cards'), t);
  if (data.status === 'ACTIVE') {
    renderInstallments();
    relabelSubmit();
    renderPayButton();
    relabelCharge();
    if (state.payment && !$('result').hidden) showResult(state.payment);
  }
  rememberLocale(LOCALE_KEY, state.locale);
}

function start(ev) {
  ev.preventDefault();
  if (state.busy) return;
  clearError();
  const buyer = readBuyer(state.method);
  if (!buyer) return;
  state.buyer = buyer;
  const body = { paymentMethod: state.method, buyer };
  if (state.method === 'CREDIT_CARD') body.installments = Number($('installments').value) || 1;
  setBusy(true);
  setStatus(t('creating'));
  api('POST', '/intents', body)
    .then((charge) => {
      setStatus('');
      if (charge.cardTokenization) return beginCard(charge).then(() => setBusy(false));
      setBusy(false);
      showCharge(charge.payment);
    })
    .catch((err) => {
      setBusy(false);
      showError(err);
    });
}

/** Back to the form for another attempt (a refused card, an expired charge). */
function again() {
  unmountCard();
  clearTimeout(state.poll);
  state.payment = null;
  for (const id of ['result', 'card-step', 'pix-step', 'boleto-step']) show(id, false);
  show('checkout', true);
  showCardFooter(state.method === 'CREDIT_CARD');
  setBusy(false);
  setStatus('');
}

export function init() {
  const saved = rememberedLocale(LOCALE_KEY);
  const hasLink = data.status !== 'NOT_FOUND';
  $('seller-name').textContent = data.sellerName || '';
  $('seller-name-inline').textContent = data.sellerName || '';
  $('description').textContent = data.description || '';
  show('description', hasLink);
  show(document.querySelector('.order'), hasLink);
  show('unavailable', data.status !== 'ACTIVE');
  show('checkout', data.status === 'ACTIVE');
  show('sandbox', !!data.sandbox);
  if (data.status === 'ACTIVE') {
    renderStates();
    for (const m of allowed()) {
      show('tab-' + m, true);
      $('tab-' + m).addEventListener('click', () => selectMethod(m));
    }
    document.querySelector('.tabs').classList.add('tabs-' + allowed().length);
    selectMethod(allowed()[0]);
    installMasks();
    $('checkout').addEventListener('submit', start);
    $('installments').addEventListener('change', renderPayButton);
    $('card-pay').addEventListener('click', submitCard);
    $('card-back').addEventListener('click', again);
    $('result-retry').addEventListener('click', again);
    $('boleto-print').addEventListener('click', () => window.print());
    if (data.sandbox) for (const id of ['pix-simulate', 'boleto-simulate']) $(id).addEventListener('click', simulatePayment);
    installCopyButtons(() => t('copied'));
  }
  $('lang-toggle').addEventListener('click', () => applyLocale(state.locale === 'en' ? 'pt-BR' : 'en'));
  applyLocale(saved || 'pt-BR'); // Portuguese first; English only when chosen
}
