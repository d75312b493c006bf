/*
 * Pix and boleto: the charge is issued at once; the page shows how to pay it
 * and polls the sale's state (GET /pay/{id}/transactions/{trx}) until it is
 * paid or its window closes, so "Pago" appears without a reload. Why a
 * module: both waiting flows share the poll and its pill.
 */
import { $, show } from '../shared/dom.js';
import { api } from './api.js';
import { date, t } from './i18n.js';
import { renderSheet } from './boleto-sheet.js';
import { showResult } from './result.js';
import { data, state } from './state.js';
import { clearError, setBusy, showError } from './status.js';
import { digitableLine } from '../shared/format.js';

const POLL_MS = 3000;

function renderPill(payment) {
  const pill = $(payment.paymentMethod === 'PIX' ? 'pix-state' : 'boleto-state');
  const paid = payment.status === 'PAID';
  pill.className = 'pill ' + (paid ? 'paid' : payment.status === 'PENDING' ? 'waiting' : 'over');
  pill.textContent = paid ? t('statePaid') : payment.status === 'PENDING' ? t('stateWaiting') : t('stateCanceled');
}

export function showCharge(payment) {
  state.payment = payment;
  show('checkout', false);
  show('footer', false);
  if (payment.pix) {
    $('pix-qr').src = 'data:image/png;base64,' + payment.pix.qrCodeImageBase64;
    $('pix-code').value = payment.pix.qrCode;
    $('pix-expires').textContent = date(payment.pix.expiresAt);
    show('pix-step', true);
  } else {
    $('boleto-line').value = digitableLine(payment.boleto.digitableLine);
    $('boleto-due').textContent = date(payment.boleto.dueDate);
    const url = payment.boleto.url;
    if (url && /^https:\/\//.test(url)) $('boleto-url').href = url;
    show('boleto-url', !!url);
    renderSheet(payment);
    show('boleto-step', true);
  }
  renderPill(payment);
  show(payment.pix ? 'pix-simulate' : 'boleto-simulate', !!data.sandbox);
  schedulePoll();
}

/**
 * The sandbox's "Simular pagamento": the server pays this pending Pix or
 * boleto (sandbox only, within the page's limits); the page then shows the
 * outcome as a real payment's poll would.
 */
export function simulatePayment() {
  const current = state.payment;
  if (!current || state.busy) return;
  clearError();
  setBusy(true);
  api('POST', '/transactions/' + encodeURIComponent(current.transactionId) + '/simulate-payment').then(
    (payment) => {
      setBusy(false);
      clearTimeout(state.poll);
      finish(payment);
    },
    (err) => {
      setBusy(false);
      showError(err);
    },
  );
}

function finish(payment) {
  state.payment = payment;
  renderPill(payment);
  if (payment.status === 'PENDING') return schedulePoll();
  show('pix-step', false);
  show('boleto-step', false);
  showResult(payment);
}

/** Re-renders the texts that depend on the language. */
export function relabelCharge() {
  if (!state.payment || state.payment.paymentMethod === 'CREDIT_CARD') return;
  renderPill(state.payment);
  if (state.payment.pix) $('pix-expires').textContent = date(state.payment.pix.expiresAt);
  if (state.payment.boleto) {
    $('boleto-due').textContent = date(state.payment.boleto.dueDate);
    renderSheet(state.payment);
  }
}

function schedulePoll() {
  clearTimeout(state.poll);
  state.poll = setTimeout(poll, POLL_MS);
}

function poll() {
  const current = state.payment;
  api('GET', '/transactions/' + encodeURIComponent(current.transactionId)).then(
    (payment) => finish(payment),
    // A failed poll (offline for a moment, a rate limit) is tried again later.
    () => schedulePoll(),
  );
}
