/**
 * Equipe: the members and their roles; an admin invites (Gerar convite: the
 * service sends no e-mail, the address is shown to copy; the role starts at
 * Leitura), sees the pending invitations and revokes them, changes a role,
 * removes a member (the dialog lists the keys and webhooks they made, to
 * revoke or keep, and the notice says which was done), and may require
 * two-step verification of everyone. The last admin's refusal (409
 * LAST_ADMIN) is the server's message.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { del, get, post, put } from '../api.js';
import { Confirm } from '../components/confirm.js';
import { CopyField } from '../components/copy-field.js';
import { CloseButton, Dialog } from '../components/dialog.js';
import { Field, Submit } from '../components/fields.js';
import { ErrorBox, Notice } from '../components/feedback.js';
import { useAction, useLoad } from '../components/load.js';
import { PageHead } from '../components/page-head.js';
import { Table } from '../components/table.js';
import { when } from '../format.js';
import { useI18n } from '../i18n.js';
import { ROLES, useCan, type Role } from '../session.js';

interface Member {
  userId: string;
  email: string;
  name: string;
  role: Role;
  totpEnabled: boolean;
}

export interface Team {
  members: Member[];
  requireTotp: boolean;
}

interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
}

/** The keys and webhooks a member made, as the removal lists them (webhook URLs without their query). */
interface Credentials {
  keys: { id: string; name: string | null; prefix: string }[];
  webhooks: { id: string; url: string }[];
}

interface Removal extends Credentials {
  credentials: 'revoked' | 'kept';
}

export function TeamPage() {
  const { t } = useI18n();
  const can = useCan();
  const team = useLoad(() => get<Team>('/team'), []);
  const action = useAction();
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Member | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  // Counts the invitations made here: the pending list is read again after each.
  const [invitations, setInvitations] = useState(0);
  const write = can('team.write');

  const changeRole = async (member: Member, role: Role) => {
    setNotice(undefined);
    const ok = await action.run(() => put(`/team/members/${encodeURIComponent(member.userId)}`, { role }).then(() => true));
    if (ok) setNotice(t('roleChanged'));
    team.reload();
  };
  // The box shows the choice at once and keeps it until the team is read again (or the change is refused):
  // the stale list read before the change must not flip it back in between.
  const [required, setRequiredShown] = useState<boolean | undefined>(undefined);
  useEffect(() => setRequiredShown(undefined), [team.data]);
  const setRequired = async (requireTotp: boolean) => {
    setRequiredShown(requireTotp);
    const done = await action.run(() => put('/team/settings', { requireTotp }).then(() => true));
    if (!done) setRequiredShown(undefined);
    team.reload();
  };

  return (
    <>
      <PageHead title={t('teamTitle')} action={write ? { label: t('invite'), onClick: () => setInviting(true) } : undefined} />
      <ErrorBox error={team.error ?? action.error} />
      <Notice text={notice} />
      {team.data && (
        <>
          {can('settings.write') && (
            <label class="check">
              <input type="checkbox" checked={required ?? team.data.requireTotp} disabled={action.busy} onChange={(e) => void setRequired(e.currentTarget.checked)} />
              <span>{t('requireTotp')}</span>
            </label>
          )}
          <Table columns={[t('name'), t('email'), t('role'), t('twoStep'), write && t('actions')]}>
            {team.data.members.map((member) => (
              <tr key={member.userId}>
                <td>{member.name}</td>
                <td>{member.email}</td>
                <td>
                  {write ? (
                    <select aria-label={t('roleOf', { name: member.name || member.email })} value={member.role} disabled={action.busy} onChange={(e) => void changeRole(member, e.currentTarget.value as Role)}>
                      {ROLES.map((role) => (
                        <option key={role} value={role}>
                          {t(`role_${role}`)}
                        </option>
                      ))}
                    </select>
                  ) : (
                    t(`role_${member.role}`)
                  )}
                </td>
                <td>{member.totpEnabled ? t('yes') : t('no')}</td>
                {write && (
                  <td>
                    <button type="button" class="link-button danger" onClick={() => setRemoving(member)}>
                      {t('remove')}
                      <span class="visually-hidden"> {member.name || member.email}</span>
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </Table>
        </>
      )}
      {write && <PendingInvitations key={invitations} onNotice={setNotice} />}
      {inviting && (
        <InviteDialog
          onClose={() => {
            setInviting(false);
            setInvitations((n) => n + 1);
          }}
        />
      )}
      {removing && (
        <RemoveDialog
          member={removing}
          onClose={(removal) => {
            setRemoving(undefined);
            if (removal) {
              setNotice(removalNotice(removal, t));
              team.reload();
            }
          }}
        />
      )}
    </>
  );
}

type T = ReturnType<typeof useI18n>['t'];

/** "Membro removido; 2 chaves e 1 webhook revogados" (or mantidos), or just "Membro removido." when they made none. */
function removalNotice(removal: Removal, t: T): string {
  const keys = removal.keys.length;
  const hooks = removal.webhooks.length;
  if (keys + hooks === 0) return t('removedNone');
  const vars = { keys: keys === 1 ? t('keysOne') : t('keysMany', { n: keys }), webhooks: hooks === 1 ? t('webhooksOne') : t('webhooksMany', { n: hooks }) };
  return removal.credentials === 'revoked' ? t('removedRevoked', vars) : t('removedKept', vars);
}

/** Removing a member: the keys and webhooks they made, listed, to revoke or keep in the same step. */
function RemoveDialog({ member, onClose }: { member: Member; onClose: (removal: Removal | undefined) => void }) {
  const { t } = useI18n();
  const listed = useLoad(() => get<Credentials>(`/team/members/${encodeURIComponent(member.userId)}/credentials`), [member.userId]);
  const action = useAction();
  const [choice, setChoice] = useState<'revoke' | 'keep'>('revoke');
  const any = listed.data ? listed.data.keys.length + listed.data.webhooks.length > 0 : false;
  const go = async () => {
    const removal = await action.run(() => del<Removal>(`/team/members/${encodeURIComponent(member.userId)}`, { credentials: any ? choice : 'keep' }));
    if (removal) onClose(removal);
  };
  return (
    <Dialog title={t('removeMemberTitle', { name: member.name || member.email })} onClose={() => onClose(undefined)}>
      <p>{t('removeMemberText')}</p>
      <ErrorBox error={listed.error ?? action.error} />
      {listed.loading && <p>{t('loading')}</p>}
      {listed.data && !any && <p class="muted">{t('memberNoCredentials')}</p>}
      {listed.data && any && (
        <>
          <h3>{t('memberCredentials')}</h3>
          <ul class="credentials">
            {listed.data.keys.map((k) => (
              <li key={k.id}>
                {k.name ?? '—'} <span class="mono muted">{k.prefix}</span>
              </li>
            ))}
            {listed.data.webhooks.map((w) => (
              <li key={w.id} class="break mono">
                {w.url}
              </li>
            ))}
          </ul>
          <fieldset class="field">
            <legend>{t('credentialsChoice')}</legend>
            <label class="check">
              <input type="radio" name="credentials" value="revoke" checked={choice === 'revoke'} onChange={() => setChoice('revoke')} />
              <span>{t('revokeCredentials')}</span>
            </label>
            <label class="check">
              <input type="radio" name="credentials" value="keep" checked={choice === 'keep'} onChange={() => setChoice('keep')} />
              <span>{t('keepCredentials')}</span>
            </label>
          </fieldset>
        </>
      )}
      <div class="buttons">
        <button type="button" class="danger" disabled={action.busy || listed.loading} onClick={() => void go()}>
          {t('confirmRemove')}
        </button>
        <button type="button" class="secondary" onClick={() => onClose(undefined)}>
          {t('cancel')}
        </button>
      </div>
    </Dialog>
  );
}

/** The invitations neither used nor expired, each with Revogar (its address stops working). */
function PendingInvitations({ onNotice }: { onNotice: (text: string | undefined) => void }) {
  const { t, locale } = useI18n();
  const list = useLoad(() => get<{ data: PendingInvitation[] }>('/team/invitations'), []);
  const [revoking, setRevoking] = useState<PendingInvitation | undefined>(undefined);
  return (
    <section class="panel" aria-labelledby="pending-title">
      <h2 id="pending-title">{t('pendingInvitations')}</h2>
      <ErrorBox error={list.error} />
      {list.data && list.data.data.length === 0 && <p class="muted">{t('noPendingInvitations')}</p>}
      {list.data && list.data.data.length > 0 && (
        <Table columns={[t('email'), t('role'), t('invitationExpiresAt'), t('actions')]}>
          {list.data.data.map((invitation) => (
            <tr key={invitation.id}>
              <td class="break">{invitation.email}</td>
              <td>{t(`role_${invitation.role}`)}</td>
              <td>{when(invitation.expiresAt, locale)}</td>
              <td>
                <button type="button" class="link-button danger" onClick={() => setRevoking(invitation)}>
                  {t('revokeInvitation')}
                  <span class="visually-hidden"> {invitation.email}</span>
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      {revoking && (
        <Confirm
          title={t('revokeInvitationTitle', { email: revoking.email })}
          text={t('revokeInvitationText')}
          confirm={t('confirmRevokeInvitation')}
          action={() => del(`/team/invitations/${encodeURIComponent(revoking.id)}`)}
          onClose={(done) => {
            setRevoking(undefined);
            if (done) {
              onNotice(t('invitationRevoked'));
              list.reload();
            }
          }}
        />
      )}
    </section>
  );
}

function InviteDialog({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const action = useAction();
  const [url, setUrl] = useState<string | undefined>(undefined);
  const email = useRef<HTMLInputElement>(null);
  // A new member starts at Leitura: a higher role is a choice the admin makes.
  const [role, setRole] = useState<Role>('viewer');
  const submit = async (event: Event) => {
    event.preventDefault();
    const answer = await action.run(() => post<{ url: string; expiresAt: string }>('/team/invitations', { email: email.current!.value.trim(), role }));
    if (answer) setUrl(answer.url);
  };
  return (
    <Dialog title={t('inviteTitle')} onClose={onClose}>
      {url ? (
        <>
          <CopyField label={t('invitationUrl')} value={url} />
          <p class="muted small">{t('invitationNote')}</p>
        </>
      ) : (
        <form onSubmit={submit}>
          <p class="muted small">{t('inviteNoEmail')}</p>
          <Field label={t('email')}>
            <input ref={email} type="email" required maxLength={254} />
          </Field>
          <Field label={t('role')}>
            <select value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {t(`role_${r}`)}
                </option>
              ))}
            </select>
          </Field>
          <Submit action={action} label={t('sendInvitation')} />
        </form>
      )}
      <CloseButton onClose={onClose} label={t('close')} />
    </Dialog>
  );
}
