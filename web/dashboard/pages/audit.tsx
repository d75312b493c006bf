/** Auditoria: who did what (each action in words, never its code), when and from which address, newest first, filtered by user and action, paged. */
import { useState } from 'preact/hooks';
import { get, query } from '../api.js';
import { Field } from '../components/fields.js';
import { ErrorBox } from '../components/feedback.js';
import { useLoad } from '../components/load.js';
import { ListEnd, useCursor, type Page } from '../components/pager.js';
import { when } from '../format.js';
import { useI18n } from '../i18n.js';
import { auditActionName } from '../components/status.js';
import type { Team } from './team.js';
import { AUDIT_ACTIONS } from '../../../src/modules/audit/actions.js';

interface AuditEntry {
  id: string;
  at: string;
  userId: string | null;
  email: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  details: Record<string, unknown> | null;
}


export function AuditPage() {
  const { t, locale } = useI18n();
  const [userId, setUserId] = useState('');
  const [action, setAction] = useState('');
  const paging = useCursor();
  const team = useLoad(() => get<Team>('/team').catch(() => undefined), []);
  const entries = useLoad(() => get<Page<AuditEntry>>(`/audit${query({ userId, action, cursor: paging.cursor })}`), [userId, action, paging.cursor]);

  return (
    <>
      <h1>{t('auditTitle')}</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label={t('user')}>
          <select
            value={userId}
            onChange={(e) => {
              paging.reset();
              setUserId(e.currentTarget.value);
            }}
          >
            <option value="">{t('all')}</option>
            {team.data?.members.map((m) => (
              <option key={m.userId} value={m.userId}>
                {m.name ? `${m.name} (${m.email})` : m.email}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('action')}>
          <select
            value={action}
            onChange={(e) => {
              paging.reset();
              setAction(e.currentTarget.value);
            }}
          >
            <option value="">{t('all')}</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {auditActionName(a, t)}
              </option>
            ))}
          </select>
        </Field>
      </form>
      <ErrorBox error={entries.error} />
      <div class="table-wrap" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('at')}</th>
              <th scope="col">{t('user')}</th>
              <th scope="col">{t('action')}</th>
              <th scope="col">{t('target')}</th>
              <th scope="col">{t('address')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.data?.data.map((entry) => (
              <tr key={entry.id}>
                <td>{when(entry.at, locale)}</td>
                <td>{entry.email ?? ''}</td>
                <td>{auditActionName(entry.action, t)}</td>
                <td class="mono">{entry.target ?? ''}</td>
                <td class="mono">{entry.ip ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ListEnd page={entries.data} paging={paging} empty={t('noResults')} />
    </>
  );
}
