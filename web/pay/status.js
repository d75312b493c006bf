/*
 * The page's status line, error box and busy state. Why a module: every flow
 * reports progress and failure through the same elements; an error naming
 * a buyer field is shown under that field instead.
 */
import { $, clear, node, show } from '../shared/dom.js';
import { showFieldError } from './buyer-form.js';
import { ownText } from './i18n.js';
import { closeLink } from './unavailable.js';
import { state } from './state.js';

export function setStatus(text) {
  $('status').textContent = text || '';
  show('status', !!text);
}

export function clearError() {
  show('error', false);
}

/**
 * Shows err.code and its message (an API error body, or an SvcVault onError
 * error); a link that stopped taking payments turns the page into its notice.
 */
export function showError(err) {
  setStatus('');
  if (err && err.code === 'PAYMENT_LINK_UNAVAILABLE') return closeLink();
  const details = (err && err.details) || [];
  // Errors about the buyer's fields go under the fields; the box lists the rest.
  const rest = details.filter((d) => !showFieldError(d.field, d.message));
  if (details.length > 0 && rest.length === 0) return;
  $('error-code').textContent = err && err.code ? err.code : 'ERROR';
  // A code the page knows is told in its own words; the rest arrive in the page's language (Accept-Language).
  $('error-message').textContent = (err && err.code && ownText('error_' + err.code)) || (err && err.message) || String(err);
  const list = $('error-details');
  clear(list);
  for (const d of rest) list.appendChild(node('li', d.field + ': ' + d.message));
  show(list, rest.length > 0);
  show('error', true);
}

/** Disables the action buttons while a request is under way. */
export function setBusy(busy) {
  state.busy = busy;
  for (const b of document.querySelectorAll('button.primary')) b.disabled = busy;
}
