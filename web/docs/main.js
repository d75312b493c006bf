/*
 * The service's API reference (GET /docs), rendered in the browser from
 * GET /openapi.json: the API guide, the operations by tag, the schemas, a
 * "try it" per operation with the user's sandbox key, and a pt-BR / English
 * switch for the page's own words.
 */
import { $, clear, show } from '../shared/dom.js';
import { applyPageTexts } from '../shared/i18n.js';
import { renderMarkdown } from './guide.js';
import { setLocale, state, t } from './i18n.js';
import { renderReference } from './operations.js';
import { storeKey, storedKey } from './try-it.js';

let doc = null;

function render() {
  applyPageTexts(t, state.locale);
  if (doc) renderReference(doc, $('toc'), $('operations'));
}

function start() {
  const keyInput = $('api-key');
  keyInput.value = storedKey();
  keyInput.addEventListener('input', () => storeKey(keyInput.value.trim()));
  $('key-clear').addEventListener('click', () => {
    keyInput.value = '';
    storeKey('');
  });
  $('lang-toggle').addEventListener('click', () => {
    setLocale(state.locale === 'en' ? 'pt-BR' : 'en');
    render();
  });
  render();
  fetch('/openapi.json', { headers: { accept: 'application/json' } })
    .then((res) => {
      if (!res.ok) throw new Error(t('loadFailed', { status: res.status }));
      return res.json();
    })
    .then((loaded) => {
      doc = loaded;
      const info = doc.info || {};
      $('api-title').textContent = info.title || 'Payment collection API';
      document.title = $('api-title').textContent;
      $('api-version').textContent = info.version ? 'v' + info.version : '';
      clear($('guide-body'));
      renderMarkdown($('guide-body'), info.description);
      show('guide', !!info.description);
      show('loading', false);
      render();
    })
    .catch((e) => {
      show('loading', false);
      $('load-error').textContent = e.message;
      show('load-error', true);
    });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
