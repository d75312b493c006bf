/**
 * A message in every language the service speaks. The catalog
 * (messages/errors.ts, messages/problems.ts) writes each message once with
 * its languages side by side, so a language left out does not compile; an
 * error carries the message rendered in all of them, and the response picks
 * the request's. Parameters (field names, ids, statuses, limits) are inserted
 * as plain text: nothing is ever translated by matching text.
 */
import type { Language } from './language.js';

export type Text = { readonly [L in Language]: string };

/** A catalog entry with parameters: one function per language, all filled from the same values. */
type Template<P> = { readonly [L in Language]: (p: P) => string };

export function template<P>(languages: Template<P>): (p: P) => Text {
  return (p) => ({ en: languages.en(p), 'pt-BR': languages['pt-BR'](p) });
}

/** A text made of other texts, each language from its own ("Invalid request: " then every detail, say). */
export function composed(each: (language: Language) => string): Text {
  return { en: each('en'), 'pt-BR': each('pt-BR') };
}
