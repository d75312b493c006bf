/*
 * Calls to the demo seller's server (/demo/...), which plays the shop's
 * backend. Why a module: every flow calls it the same way, with the network
 * error worded in the page's language.
 */
import { requestJson } from '../../shared/http.js';
import { t } from './i18n.js';

export function api(method, path, body) {
  return requestJson(method, path, body, {}, t('network'));
}
