/*
 * The page's language: pt-BR by default, remembered in localStorage, and
 * sent as Accept-Language by "try it" so the API's errors come back in it.
 */
import { rememberLocale, rememberedLocale, translator } from '../shared/i18n.js';
import { EN, PT_BR } from './texts.js';

const KEY = 'svc-docs-locale';
export const state = { locale: rememberedLocale(KEY) === 'en' ? 'en' : 'pt-BR' };

export const { t } = translator({ 'pt-BR': PT_BR, en: EN }, () => state.locale);

export function setLocale(locale) {
  state.locale = locale;
  rememberLocale(KEY, locale);
}
