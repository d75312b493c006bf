/*
 * The page's calls to its link's public endpoints (/pay/{id}/...). Why a
 * module: every call carries the page's CSRF token (X-Pay-Token) and its
 * language (the API words its errors in it), and words a network failure in
 * the page's language.
 */
import { requestJson } from '../shared/http.js';
import { t } from './i18n.js';
import { data, state } from './state.js';

export function api(method, path, body) {
  const headers = { 'accept-language': state.locale };
  if (method !== 'GET') headers['x-pay-token'] = data.token;
  return requestJson(method, '/pay/' + encodeURIComponent(data.linkId) + path, body, headers, t('network'));
}
