/**
 * The application's language: Portuguese by default, English when the person
 * chose it (remembered in localStorage). Texts live in texts.ts, pt-BR and
 * English side by side; `t(key, vars)` fills `{name}` placeholders.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { rememberedLocale, rememberLocale } from '../shared/i18n.js';
import { TEXTS, type TextKey } from './texts.js';

export type Locale = 'pt-BR' | 'en';
const STORAGE_KEY = 'svc-dashboard-locale';
const PLACEHOLDER = /\{(\w+)\}/g;

export function initialLocale(): Locale {
  return rememberedLocale(STORAGE_KEY) === 'en' ? 'en' : 'pt-BR';
}

export function saveLocale(locale: Locale): void {
  rememberLocale(STORAGE_KEY, locale);
  document.documentElement.lang = locale;
}

type Translate = (key: TextKey, vars?: Readonly<Record<string, string | number>>) => string;

export function translator(locale: Locale): Translate {
  return (key, vars) => {
    const text = TEXTS[key][locale];
    return vars ? text.replace(PLACEHOLDER, (whole, name: string) => (Object.prototype.hasOwnProperty.call(vars, name) ? String(vars[name]) : whole)) : text;
  };
}

export interface I18n {
  locale: Locale;
  t: Translate;
  setLocale(locale: Locale): void;
}

export const I18nContext = createContext<I18n>({ locale: 'pt-BR', t: translator('pt-BR'), setLocale: () => {} });

export const useI18n = (): I18n => useContext(I18nContext);
