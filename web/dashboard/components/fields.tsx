/** Form fields: a labelled field, a password, a list filter's select and date, the filter form's buttons, a form's problem. */
import type { ComponentChildren, Ref } from 'preact';
import { useI18n } from '../i18n.js';
import { ErrorBox } from './feedback.js';

/** A label (class field) around its control, the text first. */
export function Field({ label, grow, children }: { label: string; grow?: boolean; children: ComponentChildren }) {
  return (
    <label class={grow ? 'field grow' : 'field'}>
      <span>{label}</span>
      {children}
    </label>
  );
}

interface PasswordFieldProps {
  label: string;
  inputRef: Ref<HTMLInputElement>;
  autoComplete: 'current-password' | 'new-password';
  name?: string;
  describedBy?: string;
}

export function PasswordField({ label, inputRef, autoComplete, name, describedBy }: PasswordFieldProps) {
  return (
    <Field label={label}>
      <input ref={inputRef} type="password" name={name} autoComplete={autoComplete} required maxLength={256} aria-describedby={describedBy} />
    </Field>
  );
}

/**
 * A filter's select: Todos first (no filter), then the values with their
 * labels. The address's value is the option marked selected: a select has no
 * `defaultValue` property, so that prop left a filtered list's select at Todos.
 */
export function FilterSelect({ label, name, value, options }: { label: string; name: string; value: string | undefined; options: readonly (readonly [string, string])[] }) {
  const { t } = useI18n();
  return (
    <Field label={label}>
      <select name={name}>
        <option value="" selected={!value}>
          {t('all')}
        </option>
        {options.map(([v, text]) => (
          <option key={v} value={v} selected={v === value}>
            {text}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** The period's two days, De and Até (from, to). */
export function PeriodFields({ filters }: { filters: Record<string, string> }) {
  const { t } = useI18n();
  return (
    <>
      {(['from', 'to'] as const).map((name) => (
        <Field key={name} label={t(name)}>
          <input type="date" name={name} defaultValue={filters[name] ?? ''} />
        </Field>
      ))}
    </>
  );
}

/** Aplicar filtros, and Limpar filtros when the page can clear them. */
export function FilterButtons({ onClear }: { onClear?: () => void }) {
  const { t } = useI18n();
  return (
    <div class="buttons">
      <button type="submit" class="primary">
        {t('applyFilters')}
      </button>
      {onClear && (
        <button type="button" class="secondary" onClick={onClear}>
          {t('clearFilters')}
        </button>
      )}
    </div>
  );
}

/** What is wrong with a form before it is sent (a short password, no method chosen). */
export function Problem({ text }: { text: string | undefined }) {
  return text ? (
    <p class="error" role="alert">
      {text}
    </p>
  ) : null;
}

/** A form's request error, then its submit button, disabled while the request runs. */
export function Submit({ action, label }: { action: { error: unknown; busy: boolean }; label: string }) {
  return (
    <>
      <ErrorBox error={action.error} />
      <button type="submit" class="primary" disabled={action.busy}>
        {label}
      </button>
    </>
  );
}
