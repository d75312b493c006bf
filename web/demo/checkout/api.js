/*
 * Calls to the demo seller's server (/demo/...), which plays the shop's
 * backend. Why a module: one place turns an answer into data or an Error
 * carrying the API's code, details and status, and a network failure into
 * NETWORK_ERROR, so every flow shows errors the same way.
 */
import { t } from './i18n.js';

export function api(method, path, body) {
  const init = { method, headers: { accept: 'application/json' }, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  return fetch(path, init).then(
    (res) =>
      res.text().then((text) => {
        let data;
        try {
          data = text ? JSON.parse(text) : null;
        } catch {
          data = null;
        }
        if (res.ok) return data;
        const err = new Error((data && data.message) || 'HTTP ' + res.status);
        err.code = (data && data.code) || 'HTTP_' + res.status;
        err.details = (data && data.details) || null;
        err.status = res.status;
        throw err;
      }),
    () => {
      const err = new Error(t('network'));
      err.code = 'NETWORK_ERROR';
      throw err;
    },
  );
}
