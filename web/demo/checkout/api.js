/*
 * Calls to the demo seller's server (/demo/...), which plays the shop's
 * backend. Why a module: every flow calls it the same way, in the page's
 * language (the API words its errors in it, and the page a network error).
 */
import { requestJson } from '../../shared/http.js';
import { t } from './i18n.js';
import { state } from './state.js';

export function api(method, path, body) {
  return requestJson(method, path, body, { 'accept-language': state.locale }, t('network'));
}
