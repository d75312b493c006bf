/**
 * An error body in the client's language. Messages are written in English
 * where the error is made (services stay free of any notion of language);
 * the body is translated when it is rendered, from the English text: each
 * catalog key is an English text with `{}` for its interpolated values, and
 * a value that is itself a catalog text (a field's problem inside a summary)
 * is translated too. `code` and `field` never change.
 *
 * A text the catalog lacks (a test keeps the catalog complete for the
 * service's own texts, see test/helpers/error-texts.ts) is never shown in English to
 * a Portuguese reader: it becomes its code's generic message.
 */
import { summarize, type ErrorBody, type ErrorCode, type ErrorDetail } from '../domain-error.js';
import { DEFAULT_LANGUAGE, type Language } from './language.js';
import { PT_BR } from './messages-pt-br.js';

/** What each code means, for a text the catalog lacks. */
const GENERIC_PT_BR: Record<ErrorCode, string> = {
  VALIDATION_ERROR: 'Requisição inválida',
  TOKEN_REQUIRED: 'Um token do cofre é obrigatório',
  UNAUTHORIZED: 'Não autenticado',
  TICKET_EXPIRED: 'O ticket expirou',
  FORBIDDEN: 'Acesso negado',
  NOT_FOUND: 'Não encontrado',
  INTENT_ALREADY_PROCESSED: 'A intenção de pagamento já foi processada',
  INTENT_EXPIRED: 'A intenção de pagamento expirou',
  IDEMPOTENCY_KEY_IN_USE: 'A Idempotency-Key está em uso',
  TRANSACTION_NOT_PENDING: 'A transação não está pendente',
  PAYMENT_LINK_UNAVAILABLE: 'O link de pagamento está indisponível',
  TRANSACTION_NOT_REFUNDABLE: 'A transação não pode ser reembolsada',
  REFUND_EXCEEDS_AVAILABLE: 'O reembolso excede o valor disponível',
  REFUND_IN_PROGRESS: 'Há um reembolso em processamento',
  PAYLOAD_TOO_LARGE: 'A requisição excede o limite de tamanho',
  SPLIT_INVALID: 'Divisão inválida',
  SPLIT_RECIPIENT_NOT_FOUND: 'Recebedor da divisão não encontrado',
  WEBHOOK_URL_INVALID: 'URL de webhook inválida',
  WEBHOOK_LIMIT_REACHED: 'Limite de webhooks atingido',
  IDEMPOTENCY_KEY_REUSED: 'A Idempotency-Key foi usada em outra requisição',
  PAYMENT_METHOD_UNAVAILABLE: 'Meio de pagamento indisponível',
  RATE_LIMITED: 'Requisições demais; tente novamente em instantes',
  INTERNAL_ERROR: 'Erro interno',
  PROVIDER_ERROR: 'O provedor de pagamento falhou',
  SERVICE_UNAVAILABLE: 'Serviço indisponível; tente novamente em instantes',
};

/** A detail text the catalog lacks. */
const GENERIC_DETAIL_PT_BR = 'é inválido';

interface Entry {
  pattern: RegExp;
  text: string;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The most specific texts first (the most fixed characters): "must be at most {}" before "must be {}". */
const ENTRIES: Entry[] = Object.entries(PT_BR)
  .map(([english, text]) => ({ pattern: new RegExp(`^${english.split('{}').map(escape).join('(.+?)')}$`, 's'), text, fixed: english.replace(/\{\}/g, '').length }))
  .sort((a, b) => b.fixed - a.fixed)
  .map(({ pattern, text }) => ({ pattern, text }));

/** The Portuguese of one English text, or undefined when the catalog lacks it. */
export function toPortuguese(english: string): string | undefined {
  for (const { pattern, text } of ENTRIES) {
    const match = pattern.exec(english);
    if (!match) continue;
    const values = match.slice(1).map((value) => toPortuguese(value) ?? value);
    let i = 0;
    return text.replace(/\{\}/g, () => values[i++] ?? '');
  }
  return undefined;
}

/** Stands for a validation summary inside a message while the rest is translated. */
const SUMMARY = '\u0000';

function translateMessage(body: ErrorBody, details: ErrorDetail[] | undefined): string {
  // "Invalid request: a x; b y" repeats the details: translated from them, not parsed.
  const summary = body.details && body.details.length > 0 ? summarize(body.details) : '';
  if (summary && details && body.message.endsWith(summary)) {
    const head = toPortuguese(body.message.slice(0, -summary.length) + SUMMARY);
    if (head !== undefined) return head.replace(SUMMARY, summarize(details));
  }
  return toPortuguese(body.message) ?? GENERIC_PT_BR[body.code];
}

export function localizeBody(body: ErrorBody, language: Language): ErrorBody {
  if (language === DEFAULT_LANGUAGE) return body;
  const details = body.details?.map((d) => ({ field: d.field, message: toPortuguese(d.message) ?? GENERIC_DETAIL_PT_BR }));
  const message = translateMessage(body, details);
  return details ? { code: body.code, message, details } : { code: body.code, message };
}
