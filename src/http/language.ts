/**
 * The language of a request's messages (lib/i18n/language.ts chooses it from
 * Accept-Language): negotiated once per request, read by the error body, the
 * replay of a stored error, and the Idempotency-Key hook that stores one.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { negotiateLanguage, type Language } from '../lib/i18n/language.js';

const languages = new WeakMap<FastifyRequest, Language>();

/** The request's language. */
export function requestLanguage(request: FastifyRequest): Language {
  let language = languages.get(request);
  if (language === undefined) {
    language = negotiateLanguage(request.headers['accept-language']);
    languages.set(request, language);
  }
  return language;
}

/**
 * Marks the response as written in the request's language: Content-Language,
 * and Accept-Language added to Vary (keeping what another hook put there).
 */
export function languageHeaders(reply: FastifyReply): Language {
  const language = requestLanguage(reply.request);
  reply.header('Content-Language', language);
  const vary = reply.getHeader('vary');
  const list = vary === undefined ? '' : String(vary);
  if (!/(^|,)\s*accept-language\s*(,|$)/i.test(list)) reply.header('Vary', list ? `${list}, Accept-Language` : 'Accept-Language');
  return language;
}
