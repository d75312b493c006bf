/*
 * The text of a key in the page's current language. Why a module: every
 * view words itself through t(); Portuguese is the fallback for a key the
 * English texts lack.
 */
import { state } from './state.js';
import { EN } from './texts-en.js';
import { PT_BR } from './texts-pt-br.js';

const TEXT = { 'pt-BR': PT_BR, en: EN };

/** The text of key, with {name} placeholders filled from vars. */
export function t(key, vars) {
  let s = TEXT[state.locale][key];
  if (s === undefined) s = TEXT['pt-BR'][key] || key;
  if (vars) {
    s = s.replace(/\{(\w+)\}/g, (m, name) => (vars[name] !== undefined ? String(vars[name]) : m));
  }
  return s;
}

/** The text of key in the current language only, or undefined (no fallback). */
export function ownText(key) {
  return Object.prototype.hasOwnProperty.call(TEXT[state.locale], key) ? TEXT[state.locale][key] : undefined;
}
