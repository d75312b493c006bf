/*
 * The service's API reference (GET /docs), rendered in the browser from
 * GET /openapi.json: the API guide, the operations by tag, the schemas, a
 * "try it" per operation with the user's sandbox key. One language at a
 * time: the page's own words and the reference itself, fetched in that
 * language (/openapi.json?lang=pt-BR or en), switched by the toggle.
 */
import { $, clear, show } from '../shared/dom.js';
import { applyPageTexts } from '../shared/i18n.js';
import { renderMarkdown } from './guide.js';
import { setLocale, state, t } from './i18n.js';
import { renderReference } from './operations.js';
import { storeKey, storedKey } from './try-it.js';

/** The reference in each language, fetched once. */
const documents = new Map();

function load(locale) {
  if (!documents.has(locale)) {
    const loading = fetch('/openapi.json?lang=' + encodeURIComponent(locale), { headers: { accept: 'application/json' } }).then((res) => {
      if (!res.ok) throw new Error(t('loadFailed', { status: res.status }));
      return res.json();
    });
    // A failed fetch is not kept: the next switch asks again.
    loading.catch(() => documents.delete(locale));
    documents.set(locale, loading);
  }
  return documents.get(locale);
}

function renderDocument(doc) {
  const info = doc.info || {};
  $('api-title').textContent = info.title || t('apiTitle');
  document.title = $('api-title').textContent;
  $('api-version').textContent = info.version ? 'v' + info.version : '';
  clear($('guide-body'));
  renderMarkdown($('guide-body'), info.description);
  show('guide', !!info.description);
  renderReference(doc, $('toc'), $('operations'));
}

/** Words the page in the current language, then shows the reference in it. */
function render() {
  const locale = state.locale;
  applyPageTexts(t, locale);
  $('toc').setAttribute('aria-label', t('tocTitle'));
  return load(locale)
    .then((doc) => {
      if (state.locale !== locale) return; // switched again meanwhile
      show('loading', false);
      show('load-error', false);
      renderDocument(doc);
    })
    .catch((e) => {
      if (state.locale !== locale) return;
      show('loading', false);
      $('load-error').textContent = e.message;
      show('load-error', true);
    });
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
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
