/*
 * The vault's hosted card fields as both checkout pages mount them: in the
 * page's language, with the page's own pay button (hideSubmitButton) and the
 * pages' shared look. Why a module: the demo checkout and the payment link
 * page mount, style and unmount the same fields the same way.
 */
import { clear } from './dom.js';

const STYLE = { accentColor: '#0f766e', color: '#17212b', borderColor: '#c4ccd3', borderRadius: '8px', errorColor: '#b42318' };

/** Mounts SvcVault's fields for an intent's cardTokenization into `container`; `handlers`: onReady, onChange, onToken, onError. */
export function mountCardFields(SvcVault, container, tokenization, locale, handlers) {
  return SvcVault.mount(container, {
    vaultUrl: tokenization.vaultUrl,
    ticket: tokenization.ticket,
    encryptionKey: tokenization.encryptionKey,
    locale, // 'pt-BR' or 'en'
    // The page's own "Pagar R$ …" button submits, through handle.tokenize().
    hideSubmitButton: true,
    style: STYLE,
    ...handlers,
  });
}

/** Takes the fields out of the page (a handle already gone is fine). */
export function unmountCardFields(handle, container) {
  if (handle) {
    try {
      handle.unmount();
    } catch {
      /* already gone */
    }
  }
  clear(container);
}
