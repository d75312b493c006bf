/*
 * The page of a link that takes no payment: expired, canceled, used up,
 * unknown, or taken by another buyer while this one was paying. Why a
 * module: the page starts this way when the server says so, and turns this
 * way when a payment is refused with PAYMENT_LINK_UNAVAILABLE.
 */
import { $, show } from '../shared/dom.js';
import { t } from './i18n.js';
import { data } from './state.js';

/** Words the notice for data.status (nothing while the link is ACTIVE). */
export function renderUnavailable() {
  if (data.status === 'ACTIVE') return;
  $('unavailable-title').textContent = t('unavailable_' + data.status);
  const text = data.status === 'NOT_FOUND' ? 'notFoundText' : data.status === 'TAKEN' ? 'takenText' : 'unavailableText';
  $('unavailable-text').textContent = t(text, { seller: data.sellerName });
}

/**
 * The link stopped taking payments while the page was open (used up by another
 * buyer, expired or canceled meanwhile: the refusal does not say which): no
 * form, a clear notice.
 */
export function closeLink() {
  data.status = 'TAKEN';
  for (const id of ['checkout', 'card-step', 'error']) show(id, false);
  renderUnavailable();
  show('unavailable', true);
  $('unavailable-title').tabIndex = -1;
  $('unavailable-title').focus();
}
