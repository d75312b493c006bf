/*
 * How the demo shows and reads money, dates, boleto lines and tax ids, in
 * the page's current language (the shared formats, web/shared/format.js).
 * Why a module: the order form and the result view must agree.
 */
import * as shared from '../../shared/format.js';
import { t } from './i18n.js';
import { MAX_AMOUNT_CENTS, state } from './state.js';

export function money(cents) {
  return shared.money(cents, state.locale);
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

export function date(iso) {
  return shared.date(iso, state.locale);
}

export { digitableLine, taxId } from '../../shared/format.js';

export function methodName(method) {
  return method === 'PIX' ? t('methodPix') : method === 'BOLETO' ? t('methodBoleto') : t('methodCard');
}
