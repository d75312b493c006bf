/**
 * Desenvolvedores: API keys (Nova chave shows the key once, offering only the
 * scopes the signed-in role may grant, with the table of what each role may
 * grant; Revogar asks to confirm; Criada por names the member who made it),
 * webhooks (Novo webhook shows the whsec_ secret once; their
 * deliveries, resend, a test event; delete), and the event log. A secret is
 * kept only in the dialog's state: closing it forgets it.
 */
import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { del, get, post, query } from '../api.js';
import { Confirm } from '../components/confirm.js';
import { CopyField } from '../components/copy-field.js';
import { CloseButton, Dialog } from '../components/dialog.js';
import { Field, Submit } from '../components/fields.js';
import { ErrorBox, Notice } from '../components/feedback.js';
import { useAction, useLoad } from '../components/load.js';
import { PageHead } from '../components/page-head.js';
import { Empty, ListEnd, useCursor, type Page } from '../components/pager.js';
import { Status, eventName } from '../components/status.js';
import { Table } from '../components/table.js';
import { when } from '../format.js';
import { useI18n } from '../i18n.js';
import { ROLES, useCan, useSession } from '../session.js';
import { grantableScopes, may } from '../../../src/modules/users/roles.js';
import { SCOPES } from '../../../src/http/scopes.js';

/** The member who made a key or a webhook in the dashboard; null: the operator's CLI or the API. */
interface Creator {
  userId: string;
  name: string;
  email: string;
}

interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: string[] | null;
  createdAt: string;
  lastUsedAt?: string | null;
  revokedAt?: string | null;
  createdBy?: Creator | null;
}

interface Webhook {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  /** disabled: every delivery failed for WEBHOOK_DISABLE_AFTER; what waits is sent when it is enabled again. */
  status?: 'enabled' | 'disabled';
  createdAt?: string;
  createdBy?: Creator | null;
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
      <PageHead title={t('apiKeys')} level={2} id="keys-title" action={write ? { label: t('newKey'), onClick: () => setCreating(true) } : undefined} />
      <ErrorBox error={keys.error} />
      <Table columns={[t('name'), t('prefix'), t('scopes'), t('createdBy'), t('createdAt'), t('lastUsed'), t('actions')]}>
        {keys.data?.data.map((key) => (
          <tr key={key.id}>
            <td>{key.name || <span class="muted">—</span>}</td>
            <td class="mono">{key.prefix}</td>
            <td>{key.scopes ? key.scopes.join(', ') : t('allScopes')}</td>
            <td>{key.createdBy ? key.createdBy.name || key.createdBy.email : <span class="muted">{t('createdByNobody')}</span>}</td>
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
      </Table>
      <Empty page={keys.data} text={t('noneYet')} />
      <ScopesByRole />
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

/** What each role may grant a key it makes (the server's table, users/roles.ts): only roles with developers.write make keys. */
function ScopesByRole() {
  const { t } = useI18n();
  return (
    <details class="scopes-by-role">
      <summary>{t('scopesByRole')}</summary>
      <p class="muted small">{t('scopeCap')}</p>
      <Table columns={[t('role'), t('scopes')]}>
        {ROLES.map((role) => {
          const scopes = grantableScopes(role);
          const makes = may(role, 'developers.write');
          return (
            <tr key={role}>
              <td>{t(`role_${role}`)}</td>
              <td class="mono">{!makes ? <span class="muted">{t('cannotCreateKeys')}</span> : scopes.length === SCOPES.length ? t('allScopes') : scopes.join(', ')}</td>
            </tr>
          );
        })}
      </Table>
    </details>
  );
}

function NewKeyDialog({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const { me } = useSession();
  const grantable = grantableScopes(me.role);
  const create = (data: FormData) => post<{ key: string }>('/api-keys', { name: String(data.get('name') ?? '').trim(), scopes: data.getAll('scopes').map(String) }).then((created) => created.key);
  return (
    <SecretDialog title={t('newKeyTitle')} doneTitle={t('keyCreated')} once={t('keyOnce')} label={t('key')} submit={t('createKey')} create={create} onClose={onClose}>
      <Field label={t('name')}>
        <input name="name" required maxLength={100} />
      </Field>
      <p class="muted small" id="scope-cap">
        {t('scopeCap')}
      </p>
      <CheckList legend={grantable.length === SCOPES.length ? t('scopes') : t('scopesOfRole')} name="scopes" values={grantable} />
    </SecretDialog>
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
      <PageHead title={t('webhooks')} level={2} id="webhooks-title" action={write ? { label: t('newWebhook'), onClick: () => setCreating(true) } : undefined} />
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
            <p class="muted small">{t('webhookCreatedBy', { name: hook.createdBy ? hook.createdBy.name || hook.createdBy.email : t('createdByNobody') })}</p>
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
      <Empty page={hooks.data} text={t('noneYet')} />
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
      <Table columns={[t('events'), t('status'), t('httpStatus'), t('attempt'), t('at'), write && t('actions')]}>
        {list.data?.data.map((d) => (
          <tr key={d.id}>
            <td class="mono break">{d.eventId}</td>
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
      </Table>
      <ListEnd page={list.data} paging={paging} empty={t('noneYet')} />
    </div>
  );
}

function NewWebhookDialog({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const create = (data: FormData) => post<{ secret: string }>('/webhooks', { url: String(data.get('url') ?? '').trim(), events: data.getAll('events').map(String) }).then((created) => created.secret);
  return (
    <SecretDialog title={t('newWebhookTitle')} doneTitle={t('webhookCreated')} once={t('secretOnce')} label={t('secret')} submit={t('createWebhook')} create={create} onClose={onClose}>
      <Field label={t('url')}>
        <input name="url" type="url" required maxLength={2048} placeholder="https://" />
      </Field>
      <CheckList legend={t('events')} name="events" values={EVENTS} />
    </SecretDialog>
  );
}

interface SecretDialogProps {
  title: string;
  doneTitle: string;
  once: string;
  label: string;
  submit: string;
  create: (data: FormData) => Promise<string>;
  onClose: () => void;
  children: ComponentChildren;
}

/** Creates a key or a webhook from the form's fields and shows its secret once, kept only in this state: closing forgets it. */
function SecretDialog({ title, doneTitle, once, label, submit, create, onClose, children }: SecretDialogProps) {
  const { t } = useI18n();
  const action = useAction();
  const form = useRef<HTMLFormElement>(null);
  const [secret, setSecret] = useState<string | undefined>(undefined);
  const send = async (event: Event) => {
    event.preventDefault();
    const created = await action.run(() => create(new FormData(form.current!)));
    if (created) setSecret(created);
  };
  return (
    <Dialog title={secret ? doneTitle : title} onClose={onClose}>
      {secret ? (
        <>
          <p class="notice">{once}</p>
          <CopyField label={label} value={secret} />
        </>
      ) : (
        <form ref={form} onSubmit={send}>
          {children}
          <Submit action={action} label={submit} />
        </form>
      )}
      <CloseButton onClose={onClose} label={t('close')} />
    </Dialog>
  );
}

/** An event type that may wrap after each dot on a narrow screen (`transaction.` / `created`), and nowhere else. */
function breakAtDots(type: string) {
  return type.split('.').map((part, i) => (i === 0 ? part : [<wbr key={i} />, `.${part}`]));
}

function Events() {
  const { t, locale } = useI18n();
  const paging = useCursor();
  const list = useLoad(() => get<Page<EventItem>>(`/events${query({ cursor: paging.cursor })}`), [paging.cursor]);
  return (
    <section class="panel" aria-labelledby="events-title">
      <h2 id="events-title">{t('eventLog')}</h2>
      <ErrorBox error={list.error} />
      <Table columns={[t('id'), t('type'), t('at')]}>
        {list.data?.data.map((e) => (
          <tr key={e.id}>
            <td class="mono break">{e.id}</td>
            <td>
              {eventName(e.type, t)}
              <span class="mono muted small block">{breakAtDots(e.type)}</span>
            </td>
            <td>{when(e.createdAt, locale)}</td>
          </tr>
        ))}
      </Table>
      <ListEnd page={list.data} paging={paging} empty={t('noneYet')} />
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
