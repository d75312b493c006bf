/*
 * The page itself: language, tabs, the amount field, copy buttons, "new
 * order", and the start-up that fetches /demo/config. Why a module: it wires
 * the flows to the page's controls and is the only code run on load.
 */
import { installCopyButtons } from '../../shared/copy.js';
import { api } from './api.js';
import { beginBoleto } from './boleto-flow.js';
import { beginCard, renderPayButton, renderTestCards, submitCard, unmountCard } from './card-flow.js';
import { $, show } from '../../shared/dom.js';
import { applyPageTexts, rememberedLocale, rememberLocale } from '../../shared/i18n.js';
import { formatInputAmount, parseAmount } from './format.js';
import { t } from './i18n.js';
import { renderInstallments, selectMethod } from './order.js';
import { beginPix } from './pix-flow.js';
import { showResult } from './result.js';
import { simulatePayment } from './simulate.js';
import { METHODS, state } from './state.js';
import { clearError, lockOrder, setBusy, setStatus, showError } from './status.js';

const LOCALE_KEY = 'svc-demo-locale';

/** Back to an empty order: no intent, no mounted card fields, every panel at its start. */
function reset() {
  unmountCard();
  state.intent = null;
  state.transaction = null;
  setBusy(false);
  lockOrder(false);
  clearError();
  setStatus('');
  show('result', false);
  show('card-start', true);
  show('card-form', false);
  show('pix-start', true);
  show('pix-charge', false);
  show('boleto-start', true);
  show('boleto-charge', false);
}

function applyLocale(locale) {
  state.locale = locale === 'en' ? 'en' : 'pt-BR';
  applyPageTexts(t, state.locale);
  document.title = t('title') + ' · Sandbox';
  const cents = parseAmount($('amount').value);
  if (cents !== undefined && !$('amount').disabled) $('amount').value = formatInputAmount(cents);
  renderInstallments();
  renderTestCards();
  renderPayButton();
  if (state.transaction && !$('result').hidden) showResult(state.transaction);
  rememberLocale(LOCALE_KEY, state.locale);
}

/** Arrow keys move between the payment tabs (WAI-ARIA tabs pattern). */
function onTabKey(ev) {
  const i = METHODS.indexOf(state.method);
  const next = ev.key === 'ArrowRight' ? i + 1 : ev.key === 'ArrowLeft' ? i - 1 : null;
  if (next === null || state.intent) return;
  const method = METHODS[(next + METHODS.length) % METHODS.length];
  selectMethod(method);
  $('tab-' + method).focus();
  ev.preventDefault();
}

export function init() {
  const saved = rememberedLocale(LOCALE_KEY);
  applyLocale(saved || 'pt-BR'); // Portuguese first; English only when chosen

  for (const tab of document.querySelectorAll('[role=tab]')) {
    tab.addEventListener('click', (ev) => selectMethod(ev.currentTarget.getAttribute('data-method')));
    tab.addEventListener('keydown', onTabKey);
  }
  $('lang-toggle').addEventListener('click', () => applyLocale(state.locale === 'en' ? 'pt-BR' : 'en'));
  $('amount').addEventListener('input', () => {
    show('amount-error', false);
    renderInstallments();
  });
  $('amount').addEventListener('blur', () => {
    const cents = parseAmount($('amount').value);
    if (cents !== undefined) $('amount').value = formatInputAmount(cents);
  });
  $('card-begin').addEventListener('click', beginCard);
  $('pix-begin').addEventListener('click', beginPix);
  $('boleto-begin').addEventListener('click', beginBoleto);
  $('card-pay').addEventListener('click', submitCard);
  $('card-cancel').addEventListener('click', reset);
  $('new-order').addEventListener('click', reset);
  $('error-retry').addEventListener('click', () => {
    const method = state.method;
    reset();
    if (method === 'CREDIT_CARD') beginCard();
  });
  for (const button of document.querySelectorAll('.simulate-pay')) button.addEventListener('click', simulatePayment);
  installCopyButtons(() => t('copied'));
  $('result-title').tabIndex = -1;

  setBusy(true); // until the configuration (the vault's URL) is known
  api('GET', '/demo/config').then(
    (config) => {
      state.config = config;
      setBusy(false);
      $('company-name').textContent = config.companyName;
    },
    (err) => {
      setBusy(true);
      showError(err.code === 'NOT_FOUND' ? { code: err.code, message: t('noDemo') } : err, false);
    },
  );
}
