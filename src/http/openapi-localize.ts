/**
 * The API reference in another language (GET /openapi.json?lang=pt-BR, the
 * document GET /docs shows in Portuguese): the English document with every
 * text a person reads (the title, the guide, tag names, summaries,
 * descriptions) in that language, and everything a program reads (paths,
 * operation ids, schemas, codes, examples) unchanged.
 *
 * A text is found in the language's catalog by its exact English wording, once
 * per process (the document is built once, never per request): a changed
 * English text then has no translation, which the catalog's test reports,
 * instead of keeping a stale one no test would notice. The responses'
 * descriptions are written again from their error codes and statuses with the
 * language's words (openapi-route.ts). A text with no translation stays in
 * English and is listed in `missing`.
 */
import type { ErrorCode } from '../lib/domain-error.js';
import { DATA_KEYWORDS, ENGLISH_RESPONSES, errorsDescription, isObject, successDescription, successWord, type Json, type ResponseWords } from './openapi-route.js';

export interface DocumentLanguage {
  /** The API's guide (info.description) in this language. */
  guide: string;
  /** English text → this language's: titles, tag names, summaries, descriptions. */
  texts: Readonly<Record<string, string>>;
  responses: ResponseWords;
}

/** Keys whose string value a person reads. */
const TEXT_KEYS = new Set(['title', 'summary', 'description']);
/** Keys whose values are data: examples, enums, defaults (and `example`, OpenAPI's own). */
const DATA_KEYS = new Set([...DATA_KEYWORDS, 'example']);

/** The error codes a documented error response lists (openapi-route.ts's errorResponse), or undefined. */
function codesOf(response: Json): ErrorCode[] | undefined {
  const schema = (response.content as Json | undefined)?.['application/json'] as Json | undefined;
  const parts = (schema?.schema as Json | undefined)?.allOf;
  const code = Array.isArray(parts) && isObject(parts[1]) ? ((parts[1].properties as Json | undefined)?.code as Json | undefined) : undefined;
  return Array.isArray(code?.enum) ? (code.enum as ErrorCode[]) : undefined;
}

export function localizeDocument(document: unknown, language: DocumentLanguage): { document: Json; missing: string[] } {
  const missing = new Set<string>();
  const lookup = (english: string): string => {
    const found = Object.hasOwn(language.texts, english) ? language.texts[english] : undefined;
    if (found === undefined) missing.add(english);
    return found ?? english;
  };

  // The responses' descriptions, composed again in this language (an error's also stands in its schema).
  const composed = new Map<string, string>();
  const original = document as Json;
  for (const item of [...Object.values((original.paths as Json | undefined) ?? {}), ...Object.values((original.webhooks as Json | undefined) ?? {})]) {
    for (const operation of Object.values(item as Json)) {
      for (const [status, response] of Object.entries(((operation as Json).responses as Json | undefined) ?? {})) {
        const english = (response as Json).description;
        if (typeof english !== 'string' || composed.has(english)) continue;
        const codes = codesOf(response as Json);
        const prefix = `${successWord(status, ENGLISH_RESPONSES)}: `;
        if (codes) composed.set(english, errorsDescription(codes, language.responses));
        else if (english.startsWith(prefix)) composed.set(english, successDescription(status, lookup(english.slice(prefix.length)), language.responses));
      }
    }
  }
  const translate = (english: string): string => composed.get(english) ?? lookup(english);

  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isObject(node)) return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (DATA_KEYS.has(key)) out[key] = value;
      else if (TEXT_KEYS.has(key) && typeof value === 'string') out[key] = translate(value);
      else if (key === 'tags' && Array.isArray(value)) out[key] = value.map(localizeTag);
      else out[key] = walk(value);
    }
    return out;
  };
  // An operation names its tags; the document's `tags` list describes them ({name, description}).
  const localizeTag = (tag: unknown): unknown =>
    typeof tag === 'string' ? translate(tag) : isObject(tag) && typeof tag.name === 'string' ? { ...(walk(tag) as Json), name: translate(tag.name) } : walk(tag);

  const localized: Json = {};
  for (const [key, value] of Object.entries(original)) {
    // The guide is written in each language as a whole (api-guide.ts), not text by text.
    localized[key] = key === 'info' && isObject(value) ? { ...(walk({ ...value, description: undefined }) as Json), description: language.guide } : walk(value);
  }
  return { document: localized, missing: [...missing] };
}
