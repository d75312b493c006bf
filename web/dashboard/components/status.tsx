/** A status as a coloured pill with its word (the colour is never the only sign), and a payment method's name. */
import { useI18n } from '../i18n.js';
import { TEXTS, type TextKey } from '../texts.js';

const isKnown = (key: string): key is TextKey => Object.prototype.hasOwnProperty.call(TEXTS, key);

export function Status({ value }: { value: string }) {
  const { t } = useI18n();
  const key = `status_${value}`;
  return <span class={`pill pill-${value.toLowerCase()}`}>{isKnown(key) ? t(key) : value}</span>;
}

export function MethodName({ value }: { value: string }) {
  const { t } = useI18n();
  const key = `method_${value}`;
  return <>{isKnown(key) ? t(key) : value}</>;
}
