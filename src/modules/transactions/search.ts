/**
 * The dashboard's search box (docs/dashboard.md "Search"): what a typed text
 * may be, each kind answered by its own index (migration 016). Pure: the text
 * becomes keys, each sent as a query parameter, never SQL; the name's words
 * are folded to [a-z0-9] first, as the index folds the name.
 *
 *  - `trx_…` → the transaction's id; `pi_…` → its payment intent's id
 *  - a text with `@` → the buyer's e-mail, whole, case ignored
 *  - anything else → the referenceId (exact), and either the buyer's CPF or
 *    CNPJ (when the text less `.`, `-`, `/` and spaces has the shape of one)
 *    or the words of the buyer's name (each word the start of a word of the
 *    name, accents and case ignored)
 */
export interface SearchKeys {
  id?: string;
  paymentIntentId?: string;
  email?: string;
  referenceId?: string;
  document?: string;
  /** Folded words, each matched as the start of a word of the name. */
  nameWords?: string[];
}

/** At most this many words of a name are searched (a longer text is no name). */
const MAX_WORDS = 8;
const MAX_REFERENCE_ID = 64;
const CPF = /^[0-9]{11}$/;
const CNPJ = /^[0-9A-Z]{12}[0-9]{2}$/;

/** Lowercase without accents: what the index holds of a name (migration 016's svc_name_prefixes). */
function foldName(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export function searchKeys(q: string): SearchKeys {
  const text = q.trim();
  if (text.startsWith('trx_')) return { id: text };
  if (text.startsWith('pi_')) return { paymentIntentId: text };
  if (text.includes('@')) return { email: text.toLowerCase() };
  const keys: SearchKeys = text.length <= MAX_REFERENCE_ID ? { referenceId: text } : {};
  const compact = text.replace(/[.\-/\s]/g, '').toUpperCase();
  if (CPF.test(compact) || CNPJ.test(compact)) return { ...keys, document: compact };
  const words = foldName(text).split(/[^a-z0-9]+/).filter(Boolean).slice(0, MAX_WORDS);
  return words.length > 0 ? { ...keys, nameWords: words } : keys;
}

/** Whether the keys can match anything (an empty or punctuation-only text cannot). */
export const searchesSomething = (keys: SearchKeys): boolean => Object.keys(keys).length > 0;
