/*
 * The vault's SDK for the demo: its URL comes from /demo/config. Why a
 * module: the card flow asks for the SDK without knowing where it is.
 */
import { loadSdk as load } from '../../shared/sdk-loader.js';
import { t } from './i18n.js';
import { state } from './state.js';

export function loadSdk() {
  return load(state.config.vaultUrl, (url) => t('sdkUnavailable', { url }));
}
