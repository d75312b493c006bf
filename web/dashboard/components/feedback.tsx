/** What a page says about a request: an error (the API's message, its details by field) or a success. */
import { ApiError } from '../api.js';
import { useI18n } from '../i18n.js';

export function ErrorBox({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (!error) return null;
  const api = error instanceof ApiError ? error : undefined;
  const message = api?.status === 403 && api.code === 'FORBIDDEN' ? `${t('forbidden')} ${api.message}` : (api?.message ?? String(error));
  return (
    <div class="error" role="alert">
      <p>{message}</p>
      {api && api.details.length > 0 && (
        <ul>
          {api.details.map((detail, i) => (
            <li key={i}>{detail.field ? `${detail.field}: ${detail.message}` : detail.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function Notice({ text }: { text: string | undefined }) {
  return text ? (
    <p class="status" role="status">
      {text}
    </p>
  ) : null;
}
