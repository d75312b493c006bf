/*
 * Loads the vault's SvcVault SDK ({vaultUrl}/sdk.js) the first time a card
 * payment starts. Why a module: both checkout pages need it, and their CSPs
 * allow a script element from the vault's origin, not code of their own making.
 */
let loading = null;

/** Resolves with window.SvcVault; a failed load (rejected with SDK_UNAVAILABLE and `failMessage(url)`) can be retried. */
export function loadSdk(vaultUrl, failMessage) {
  if (window.SvcVault) return Promise.resolve(window.SvcVault);
  if (loading) return loading;
  const url = vaultUrl.replace(/\/+$/, '') + '/sdk.js';
  loading = new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.onload = () => {
      if (window.SvcVault) resolve(window.SvcVault);
      else script.onerror();
    };
    script.onerror = () => {
      loading = null;
      if (script.parentNode) script.parentNode.removeChild(script);
      const err = new Error(failMessage(url));
      err.code = 'SDK_UNAVAILABLE';
      reject(err);
    };
    document.head.appendChild(script);
  });
  return loading;
}
