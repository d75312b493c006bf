/*
 * The demo's words in its current language (web/shared/i18n.js over the
 * demo's texts). Why a module: every view of the demo words itself through t().
 */
import { translator } from '../../shared/i18n.js';
import { state } from './state.js';
import { EN } from './texts-en.js';
import { PT_BR } from './texts-pt-br.js';

export const { t, ownText } = translator({ 'pt-BR': PT_BR, en: EN }, () => state.locale);
