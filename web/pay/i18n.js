/*
 * The page's words in its current language (web/shared/i18n.js over this
 * page's texts). Why a module: every view words itself through t().
 */
import { translator } from '../shared/i18n.js';
import * as shared from '../shared/format.js';
import { installmentsText as sharedInstallments } from '../shared/installments.js';
import { state } from './state.js';
import { EN } from './texts-en.js';
import { PT_BR } from './texts-pt-br.js';

export const { t, ownText } = translator({ 'pt-BR': PT_BR, en: EN }, () => state.locale);

export const money = (cents) => shared.money(cents, state.locale);
export const date = (iso) => shared.date(iso, state.locale);

export function methodName(method) {
  return method === 'PIX' ? t('methodPix') : method === 'BOLETO' ? t('methodBoleto') : t('methodCard');
}

/** Installments as charged (web/shared/installments.js), in the page's language. */
export const installmentsText = (amountCents, n) => sharedInstallments(amountCents, n, t, money);
