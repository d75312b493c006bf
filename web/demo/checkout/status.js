/*
 * The page's status line, error box and busy state. Why a module: every flow
 * reports progress and failure through the same elements, and showError is
 * shared by API errors and the SDK's onError errors (both {code, message, details}).
 */
import { $, clear, node, show } from '../../shared/dom.js';
import { ownText } from './i18n.js';
import { state } from './state.js';

export function setStatus(text) {
  const el = $('status');
  el.textContent = text || '';
  show(el, !!text);
}

export function clearError() {
  show('error', false);
  show('error-retry', false);
}

/** Shows err.code and err.message (an API error body, or an SvcVault onError error). */
export function showError(err, canRetry) {
  setStatus('');
  $('error-code').textContent = err && err.code ? err.code : 'ERROR';
  // API errors arrive in the page's language (Accept-Language); a code the page knows is told in its own words.
  $('error-message').textContent = (err && err.code && ownText('error_' + err.code)) || (err && err.message) || String(err);
  const list = $('error-details');
  clear(list);
  const details = (err && err.details) || [];
  for (const d of details) list.appendChild(node('li', d.field + ': ' + d.message));
  show(list, details.length > 0);
  show('error-retry', !!canRetry);
  show('error', true);
}

/** Disables the action buttons while a request is under way. */
export function setBusy(busy) {
  state.busy = busy;
  const buttons = document.querySelectorAll('button.primary, button.simulate-pay');
  for (const b of buttons) b.disabled = busy;
}

/** The amount and method cannot change once a charge exists for them. */
export function lockOrder(locked) {
  $('amount').disabled = locked;
  $('installments').disabled = locked;
  for (const tab of document.querySelectorAll('[role=tab]')) {
    if (tab.getAttribute('aria-selected') !== 'true') tab.disabled = locked;
  }
}
