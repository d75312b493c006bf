/*
 * The page's language: the URL's `?lang=` (so a link carries it), else the
 * one chosen earlier in this browser (localStorage), else pt-BR. A switch
 * writes both. "Try it" sends it as Accept-Language, so the API's errors
 * come back in it, and the reference is fetched in it (/openapi.json?lang=).
 */
import { rememberLocale, rememberedLocale, translator } from '../shared/i18n.js';
import { EN, PT_BR } from './texts.js';

const KEY = 'svc-docs-locale';
const LOCALES = ['pt-BR', 'en'];

function initialLocale() {
  const asked = new URLSearchParams(window.location.search).get('lang');
  if (LOCALES.indexOf(asked) >= 0) return asked;
  return rememberedLocale(KEY) === 'en' ? 'en' : 'pt-BR';
}

export const state = { locale: initialLocale() };

export const { t } = translator({ 'pt-BR': PT_BR, en: EN }, () => state.locale);

export function setLocale(locale) {
  state.locale = locale;
  rememberLocale(KEY, locale);
  const url = new URL(window.location.href);
  url.searchParams.set('lang', locale);
  window.history.replaceState(null, '', url);
}
