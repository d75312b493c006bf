/**
 * Money, dates and amounts typed as reais, in the page's language. Money and
 * dates come from web/shared/format.js, so the dashboard shows a sale as the
 * checkout pages do.
 */
import { date as sharedDate, money as sharedMoney, taxId as sharedTaxId } from '../shared/format.js';
import type { Locale } from './i18n.js';

/** Centavos → `R$ 1.234,56` (pt-BR) or `R$1,234.56` (en). */
export const money = (cents: number, locale: Locale): string => sharedMoney(cents, locale) as string;

/** An ISO timestamp (São Paulo time) or a YYYY-MM-DD date, as the language writes it; empty for none. */
export const when = (iso: string | null | undefined, locale: Locale): string => (iso ? (sharedDate(iso, locale) as string) : '');

export const taxId = (doc: string): string => sharedTaxId(doc) as string;

/** Reais typed with a comma (`1.234,56`, `10,5`, `10`) or, with no comma, a decimal point (`10.50`). */
const WITH_COMMA = /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/;
const WITH_POINT = /^(\d+)(?:\.(\d{1,2}))?$/;

/** Reais as typed → centavos, or undefined when it is not an amount. */
export function parseReais(text: string): number | undefined {
  const typed = text.trim().replace(/^R\$\s*/, '');
  const match = WITH_COMMA.exec(typed) ?? WITH_POINT.exec(typed);
  if (!match) return undefined;
  const whole = Number(match[1]!.replace(/\./g, ''));
  const cents = Number((match[2] ?? '0').padEnd(2, '0'));
  const total = whole * 100 + cents;
  return Number.isSafeInteger(total) ? total : undefined;
}

/** Centavos → what the field shows for them: `10,00`. */
export const reaisText = (cents: number): string => `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;
