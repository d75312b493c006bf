/**
 * Cursor paging as the API pages (`limit`, `cursor` → `hasMore`,
 * `nextCursor`): the cursors of the pages seen so far, so Previous goes back.
 */
import { useState } from 'preact/hooks';
import { useI18n } from '../i18n.js';

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string | null;
}

export function useCursor(): { cursor: string | undefined; next(cursor: string): void; previous(): void; reset(): void; canGoBack: boolean } {
  const [stack, setStack] = useState<string[]>([]);
  return {
    cursor: stack[stack.length - 1],
    next: (cursor) => setStack((s) => [...s, cursor]),
    previous: () => setStack((s) => s.slice(0, -1)),
    reset: () => setStack([]),
    canGoBack: stack.length > 0,
  };
}

export function Pager({ page, paging }: { page: Page<unknown> | undefined; paging: ReturnType<typeof useCursor> }) {
  const { t } = useI18n();
  const more = page?.hasMore && page.nextCursor;
  if (!paging.canGoBack && !more) return null;
  return (
    <nav class="pager" aria-label={t('pageNav')}>
      <button type="button" class="secondary" disabled={!paging.canGoBack} onClick={paging.previous}>
        {t('previousPage')}
      </button>
      <button type="button" class="secondary" disabled={!more} onClick={() => more && paging.next(more)}>
        {t('nextPage')}
      </button>
    </nav>
  );
}

/** A list's message when it has no rows (Nada ainda, Nenhum resultado). */
export function Empty({ page, text }: { page: { data: unknown[] } | undefined; text: string }) {
  return page && page.data.length === 0 ? <p class="muted">{text}</p> : null;
}

/** Below a paged list: its message when empty, then Anterior / Próxima. */
export function ListEnd({ page, paging, empty }: { page: Page<unknown> | undefined; paging: ReturnType<typeof useCursor>; empty: string }) {
  return (
    <>
      <Empty page={page} text={empty} />
      <Pager page={page} paging={paging} />
    </>
  );
}
