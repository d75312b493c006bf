/*
 * How the demo shows and reads money, dates, boleto lines and tax ids, per
 * language. Why a module: the order form and the result view must agree,
 * and these are pure apart from the current locale.
 */
import { t } from './i18n.js';
import { MAX_AMOUNT_CENTS, state } from './state.js';

export function money(cents) {
  return new Intl.NumberFormat(state.locale === 'en' ? 'en-US' : 'pt-BR', { style: 'currency', currency: 'BRL' }).format(cents / 100);
}

/** "159,90", "1.234,56", "159.90", "R$ 10" → centavos; undefined when not an amount. */
export function parseAmount(text) {
  let s = String(text).replace(/R\$|\s/g, '');
  if (!s) return undefined;
  if (s.indexOf(',') >= 0) s = s.replace(/\./g, '').replace(',', '.');
  else if (/^\d{1,3}(\.\d{3})+$/.test(s)) s = s.replace(/\./g, ''); // 1.000 = one thousand
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return undefined;
  const parts = s.split('.');
  const cents = Number(parts[0]) * 100 + Number(((parts[1] || '') + '00').slice(0, 2));
  return Number.isSafeInteger(cents) && cents >= 1 && cents <= MAX_AMOUNT_CENTS ? cents : undefined;
}

export function formatInputAmount(cents) {
  return (cents / 100).toFixed(2).replace('.', state.locale === 'en' ? '.' : ',');
}

/** YYYY-MM-DD → 21/11/2026 (pt-BR) or Nov 21, 2026 (en). */
export function date(iso) {
  const d = new Date(iso.length === 10 ? iso + 'T12:00:00Z' : iso);
  if (isNaN(d.getTime())) return iso;
  const opts = iso.length === 10
    ? { timeZone: 'UTC', day: '2-digit', month: '2-digit', year: 'numeric' }
    : { timeZone: 'America/Sao_Paulo', day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' };
  return d.toLocaleString(state.locale === 'en' ? 'en-GB' : 'pt-BR', opts);
}

/** 47 digits → 00190.00009 01234.567891 23456.789012 3 12340000015990 */
export function digitableLine(line) {
  const d = String(line).replace(/\D/g, '');
  if (d.length !== 47) return line;
  return d.slice(0, 5) + '.' + d.slice(5, 10) + ' ' + d.slice(10, 15) + '.' + d.slice(15, 21) + ' ' +
    d.slice(21, 26) + '.' + d.slice(26, 32) + ' ' + d.slice(32, 33) + ' ' + d.slice(33);
}

/** CPF 000.000.000-00, CNPJ 00.000.000/0000-00. */
export function taxId(doc) {
  if (/^\d{11}$/.test(doc)) return doc.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
  if (/^\d{14}$/.test(doc)) return doc.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');
  return doc;
}

export function methodName(method) {
  return method === 'PIX' ? t('methodPix') : method === 'BOLETO' ? t('methodBoleto') : t('methodCard');
}
