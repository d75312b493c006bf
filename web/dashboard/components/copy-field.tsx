/**
 * A value to copy (a URL, a key shown once): a read-only field with its label
 * and a copy button, which web/shared/copy.js (installed once by main.tsx)
 * handles for every page.
 */
import { useId } from 'preact/hooks';
import { useI18n } from '../i18n.js';

export function CopyField({ label, value }: { label: string; value: string }) {
  const { t } = useI18n();
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <div class="copy-row">
        <input id={id} value={value} readOnly spellcheck={false} class="mono" />
        <button type="button" class="secondary copy" data-copy-from={id}>
          {t('copy')}
        </button>
      </div>
    </div>
  );
}
