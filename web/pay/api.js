/*
 * The page's calls to its link's public endpoints (/pay/{id}/...). Why a
 * module: every call carries the page's CSRF token (X-Pay-Token) and words a
 * network failure in the page's language.
 */
import { requestJson } from '../shared/http.js';
import { t } from './i18n.js';
import { data } from './state.js';

export function api(method, path, body) {
  const headers = method === 'GET' ? {} : { 'x-pay-token': data.token };
  return requestJson(method, '/pay/' + encodeURIComponent(data.linkId) + path, body, headers, t('network'));
}
