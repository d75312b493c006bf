/*
 * Loads the vault's SvcVault SDK ({vaultUrl}/sdk.js) the first time a card
 * payment starts. Why a module: the vault's URL is known only from
 * /demo/config, and the page's CSP allows a script element from the vault's
 * origin (script-src), not code of its own making.
 */
import { t } from './i18n.js';
import { state } from './state.js';

/** Resolves with window.SvcVault; a failed load can be retried. */
export function loadSdk() {
  if (window.SvcVault) return Promise.resolve(window.SvcVault);
  if (state.sdk) return state.sdk;
  const url = state.config.vaultUrl.replace(/\/+$/, '') + '/sdk.js';
  state.sdk = new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.onload = () => {
      if (window.SvcVault) resolve(window.SvcVault);
      else script.onerror();
    };
    script.onerror = () => {
      state.sdk = null;
      if (script.parentNode) script.parentNode.removeChild(script);
      const err = new Error(t('sdkUnavailable', { url }));
      err.code = 'SDK_UNAVAILABLE';
      reject(err);
    };
    document.head.appendChild(script);
  });
  return state.sdk;
}
