/*
 * A page's words in its current language. Why a module: the checkout pages
 * and the API reference word every view through t(), with {name}
 * placeholders, and fall back to Portuguese for a key English lacks.
 */

/** `texts`: {'pt-BR': {...}, en: {...}}; `locale()`: the page's current language. */
export function translator(texts, locale) {
  /** The text of key, with {name} placeholders filled from vars. */
  function t(key, vars) {
    let s = texts[locale()][key];
    if (s === undefined) s = texts['pt-BR'][key] || key;
    if (vars) s = s.replace(/\{(\w+)\}/g, (m, name) => (vars[name] !== undefined ? String(vars[name]) : m));
    return s;
  }
  /** The text of key in the current language only, or undefined (no fallback). */
  function ownText(key) {
    return Object.prototype.hasOwnProperty.call(texts[locale()], key) ? texts[locale()][key] : undefined;
  }
  return { t, ownText };
}

/**
 * Words the page's static markup in `locale`: <html lang>, every
 * [data-i18n] element, and the language toggle, which names (and is marked
 * up in) the other language.
 */
export function applyPageTexts(t, locale) {
  document.documentElement.lang = locale;
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.getAttribute('data-i18n'));
  const toggle = document.getElementById('lang-toggle');
  toggle.textContent = t('langToggle');
  toggle.lang = locale === 'en' ? 'pt-BR' : 'en';
}

/** Keeps the buyer's language choice under `key` (the page still works where storage is blocked). */
export function rememberLocale(key, locale) {
  try {
    window.localStorage.setItem(key, locale);
  } catch {
    /* storage unavailable */
  }
}

/** The language chosen earlier under `key`, or null. */
export function rememberedLocale(key) {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}
