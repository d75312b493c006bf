/**
 * Desenvolvedores: API keys (Nova chave shows the key once; Revogar asks to
 * confirm), webhooks (Novo webhook shows the whsec_ secret once; their
 * deliveries, resend, a test event; delete), and the event log. A secret is
 * kept only in the dialog's state: closing it forgets it.
 */
import { useRef, useState } from 'preact/hooks';
import { del, get, post, query } from '../api.js';
import { CopyField } from '../components/copy-field.js';
import { Dialog } from '../components/dialog.js';
import { ErrorBox, Notice } from '../components/feedback.js';
import { useAction, useLoad } from '../components/load.js';
import { Pager, useCursor, type Page } from '../components/pager.js';
import { Status } from '../components/status.js';
import { when } from '../format.js';
import { useI18n } from '../i18n.js';
import { useCan } from '../session.js';

interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: string[] | null;
  createdAt: string;
  lastUsedAt?: string | null;
  revokedAt?: string | null;
}

interface Webhook {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  /** disabled: every delivery failed for WEBHOOK_DISABLE_AFTER; what waits is sent when it is enabled again. */
  status?: 'enabled' | 'disabled';
  createdAt?: string;
}

interface Delivery {
  id: string;
  eventId: string;
  status: string;
  attempt: number;
  statusCode?: number;
  createdAt?: string;
  updatedAt?: string;
}

interface EventItem {
  id: string;
  type: string;
  createdAt: string;
}

const SCOPES = ['payments:read', 'payments:write', 'webhooks:read', 'webhooks:write'] as const;
const EVENTS = ['transaction.created', 'transaction.paid', 'transaction.canceled', 'refund.succeeded', 'refund.failed', 'payment_intent.reversed', 'webhook.disabled'] as const;

export function DevelopersPage() {
  const { t } = useI18n();
  return (
    <>
      <h1>{t('developersTitle')}</h1>
      <Keys />
      <Webhooks />
      <Events />
    </>
  );
}

function Keys() {
  const { t, locale } = useI18n();
  const write = useCan()('developers.write');
  const keys = useLoad(() => get<{ data: ApiKey[] }>('/api-keys'), []);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | undefined>(undefined);
  return (
    <section class="panel" aria-labelledby="keys-title">
      <div class="page-head">
        <h2 id="keys-title">{t('apiKeys')}</h2>
        {write && (
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            {t('newKey')}
          </button>
        )}
      </div>
      <ErrorBox error={keys.error} />
      <div class="table-wrap" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('name')}</th>
              <th scope="col">{t('prefix')}</th>
              <th scope="col">{t('scopes')}</th>
              <th scope="col">{t('createdAt')}</th>
              <th scope="col">{t('lastUsed')}</th>
              <th scope="col">{t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            {keys.data?.data.map((key) => (
              <tr key={key.id}>
                <td>{key.name || <span class="muted">—</span>}</td>
                <td class="mono">{key.prefix}</td>
                <td>{key.scopes ? key.scopes.join(', ') : t('allScopes')}</td>
                <td>{when(key.createdAt, locale)}</td>
                <td>{key.lastUsedAt ? when(key.lastUsedAt, locale) : t('never')}</td>
                <td>
                  {key.revokedAt ? (
                    t('revoked')
                  ) : write ? (
                    <button type="button" class="link-button danger" onClick={() => setRevoking(key)}>
                      {t('revoke')}
                      <span class="visually-hidden"> {key.name}</span>
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {keys.data && keys.data.data.length === 0 && <p class="muted">{t('noneYet')}</p>}
      {creating && (
        <NewKeyDialog
          onClose={() => {
            setCreating(false);
            keys.reload();
          }}
        />
      )}
      {revoking && (
        <Confirm
          title={t('revokeTitle', { name: revoking.name })}
          text={t('revokeText')}
          confirm={t('confirmRevoke')}
          action={() => del(`/api-keys/${encodeURIComponent(revoking.id)}`)}
          onClose={() => {
            setRevoking(undefined);
            keys.reload();
          }}
        />
      )}
    </section>
  );
}

function NewKeyDialog({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const action = useAction();
  const form = useRef<HTMLFormElement>(null);
  const [key, setKey] = useState<string | undefined>(undefined);
  const submit = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(form.current!);
    const scopes = data.getAll('scopes').map(String);
    const created = await action.run(() => post<{ key: string }>('/api-keys', { name: String(data.get('name') ?? '').trim(), scopes }));
    if (created) setKey(created.key);
  };
  return (
    <Dialog title={key ? t('keyCreated') : t('newKeyTitle')} onClose={onClose}>
      {key ? (
        <>
          <p class="notice">{t('keyOnce')}</p>
          <CopyField label={t('key')} value={key} />
        </>
      ) : (
        <form ref={form} onSubmit={submit}>
          <label class="field">
            <span>{t('name')}</span>
            <input name="name" required maxLength={100} />
          </label>
          <CheckList legend={t('scopes')} name="scopes" values={SCOPES} />
          <ErrorBox error={action.error} />
          <button type="submit" class="primary" disabled={action.busy}>
            {t('createKey')}
          </button>
        </form>
      )}
      <button type="button" class="secondary" onClick={onClose}>
        {t('close')}
      </button>
    </Dialog>
  );
}

function Webhooks() {
  const { t } = useI18n();
  const write = useCan()('developers.write');
  const hooks = useLoad(() => get<{ data: Webhook[] }>('/webhooks'), []);
  const action = useAction();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Webhook | undefined>(undefined);
  const [open, setOpen] = useState<string | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const test = async (hook: Webhook) => {
    setNotice(undefined);
    if (await action.run(() => post(`/webhooks/${encodeURIComponent(hook.id)}/test`).then(() => true))) setNotice(t('testSent'));
  };
  const enable = async (hook: Webhook) => {
    setNotice(undefined);
    if (await action.run(() => post(`/webhooks/${encodeURIComponent(hook.id)}/enable`).then(() => true))) {
      setNotice(t('webhookEnabled'));
      hooks.reload();
    }
  };
  return (
    <section class="panel" aria-labelledby="webhooks-title">
      <div class="page-head">
        <h2 id="webhooks-title">{t('webhooks')}</h2>
        {write && (
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            {t('newWebhook')}
          </button>
        )}
      </div>
      <ErrorBox error={hooks.error ?? action.error} />
      <Notice text={notice} />
      <ul class="hooks">
        {hooks.data?.data.map((hook) => (
          <li key={hook.id} class="hook">
            <p class="break">
              <strong>{hook.url}</strong> {!hook.active && <Status value="CANCELED" />}
              {hook.active && hook.status === 'disabled' && <Status value="DISABLED" />}
            </p>
            <p class="muted small mono">{hook.events.join(', ')}</p>
            <div class="buttons">
              <button type="button" class="secondary" aria-expanded={open === hook.id} onClick={() => setOpen(open === hook.id ? undefined : hook.id)}>
                {open === hook.id ? t('hideDeliveries') : t('deliveries')}
                <span class="visually-hidden"> {hook.url}</span>
              </button>
              {write && (
                <>
                  {hook.active && hook.status === 'disabled' && (
                    <button type="button" class="primary" disabled={action.busy} onClick={() => void enable(hook)}>
                      {t('enableWebhook')}
                      <span class="visually-hidden"> {hook.url}</span>
                    </button>
                  )}
                  <button type="button" class="secondary" disabled={action.busy} onClick={() => void test(hook)}>
                    {t('sendTest')}
                  </button>
                  <button type="button" class="link-button danger" onClick={() => setDeleting(hook)}>
                    {t('deleteWebhook')}
                    <span class="visually-hidden"> {hook.url}</span>
                  </button>
                </>
              )}
            </div>
            {open === hook.id && <Deliveries webhook={hook} />}
          </li>
        ))}
      </ul>
      {hooks.data && hooks.data.data.length === 0 && <p class="muted">{t('noneYet')}</p>}
      {creating && (
        <NewWebhookDialog
          onClose={() => {
            setCreating(false);
            hooks.reload();
          }}
        />
      )}
      {deleting && (
        <Confirm
          title={t('deleteWebhookTitle', { url: deleting.url })}
          text=""
          confirm={t('confirmDelete')}
          action={() => del(`/webhooks/${encodeURIComponent(deleting.id)}`)}
          onClose={() => {
            setDeleting(undefined);
            hooks.reload();
          }}
        />
      )}
    </section>
  );
}

function Deliveries({ webhook }: { webhook: Webhook }) {
  const { t, locale } = useI18n();
  const write = useCan()('developers.write');
  const paging = useCursor();
  const list = useLoad(() => get<Page<Delivery>>(`/webhooks/${encodeURIComponent(webhook.id)}/deliveries${query({ cursor: paging.cursor })}`), [webhook.id, paging.cursor]);
  const action = useAction();
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const resend = async (delivery: Delivery) => {
    if (await action.run(() => post(`/deliveries/${encodeURIComponent(delivery.id)}/resend`).then(() => true))) {
      setNotice(t('resent'));
      list.reload();
    }
  };
  return (
    <div class="deliveries">
      <h3>{t('showDeliveries', { url: webhook.url })}</h3>
      <ErrorBox error={list.error ?? action.error} />
      <Notice text={notice} />
      <div class="table-wrap" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('events')}</th>
              <th scope="col">{t('status')}</th>
              <th scope="col">{t('httpStatus')}</th>
              <th scope="col">{t('attempt')}</th>
              <th scope="col">{t('at')}</th>
              {write && <th scope="col">{t('actions')}</th>}
            </tr>
          </thead>
          <tbody>
            {list.data?.data.map((d) => (
              <tr key={d.id}>
                <td class="mono">{d.eventId}</td>
                <td>
                  <Status value={d.status} />
                </td>
                <td>{d.statusCode ?? '—'}</td>
                <td>{d.attempt}</td>
                <td>{when(d.updatedAt ?? d.createdAt, locale)}</td>
                {write && (
                  <td>
                    <button type="button" class="link-button" disabled={action.busy} onClick={() => void resend(d)}>
                      {t('resend')}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.data && list.data.data.length === 0 && <p class="muted">{t('noneYet')}</p>}
      <Pager page={list.data} paging={paging} />
    </div>
  );
}

function NewWebhookDialog({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const action = useAction();
  const form = useRef<HTMLFormElement>(null);
  const [secret, setSecret] = useState<string | undefined>(undefined);
  const submit = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(form.current!);
    const created = await action.run(() => post<{ secret: string }>('/webhooks', { url: String(data.get('url') ?? '').trim(), events: data.getAll('events').map(String) }));
    if (created) setSecret(created.secret);
  };
  return (
    <Dialog title={secret ? t('webhookCreated') : t('newWebhookTitle')} onClose={onClose}>
      {secret ? (
        <>
          <p class="notice">{t('secretOnce')}</p>
          <CopyField label={t('secret')} value={secret} />
        </>
      ) : (
        <form ref={form} onSubmit={submit}>
          <label class="field">
            <span>{t('url')}</span>
            <input name="url" type="url" required maxLength={2048} placeholder="https://" />
          </label>
          <CheckList legend={t('events')} name="events" values={EVENTS} />
          <ErrorBox error={action.error} />
          <button type="submit" class="primary" disabled={action.busy}>
            {t('createWebhook')}
          </button>
        </form>
      )}
      <button type="button" class="secondary" onClick={onClose}>
        {t('close')}
      </button>
    </Dialog>
  );
}

function Events() {
  const { t, locale } = useI18n();
  const paging = useCursor();
  const list = useLoad(() => get<Page<EventItem>>(`/events${query({ cursor: paging.cursor })}`), [paging.cursor]);
  return (
    <section class="panel" aria-labelledby="events-title">
      <h2 id="events-title">{t('eventLog')}</h2>
      <ErrorBox error={list.error} />
      <div class="table-wrap" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('id')}</th>
              <th scope="col">{t('type')}</th>
              <th scope="col">{t('at')}</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.data.map((e) => (
              <tr key={e.id}>
                <td class="mono">{e.id}</td>
                <td class="mono">{e.type}</td>
                <td>{when(e.createdAt, locale)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.data && list.data.data.length === 0 && <p class="muted">{t('noneYet')}</p>}
      <Pager page={list.data} paging={paging} />
    </section>
  );
}

/** Checkboxes sent under one form name, all ticked at first (a new key's scopes, a new webhook's events). */
function CheckList({ legend, name, values }: { legend: string; name: string; values: readonly string[] }) {
  return (
    <fieldset class="field">
      <legend>{legend}</legend>
      {values.map((value) => (
        <label class="check" key={value}>
          <input type="checkbox" name={name} value={value} defaultChecked />
          <span class="mono">{value}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** A confirmation dialog for an action that cannot be undone (revoke a key, delete a webhook). */
function Confirm({ title, text, confirm, action, onClose }: { title: string; text: string; confirm: string; action: () => Promise<unknown>; onClose: () => void }) {
  const { t } = useI18n();
  const run = useAction();
  const go = async () => {
    if (await run.run(() => action().then(() => true))) onClose();
  };
  return (
    <Dialog title={title} onClose={onClose}>
      {text && <p>{text}</p>}
      <ErrorBox error={run.error} />
      <div class="buttons">
        <button type="button" class="danger" disabled={run.busy} onClick={() => void go()}>
          {confirm}
        </button>
        <button type="button" class="secondary" onClick={onClose}>
          {t('cancel')}
        </button>
      </div>
    </Dialog>
  );
}
