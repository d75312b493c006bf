/**
 * Equipe: the members and their roles; an admin invites (the invitation's
 * address is shown to copy: the service sends no e-mail), changes a role,
 * removes a member, and may require two-step verification of everyone. The
 * last admin's refusal (409 LAST_ADMIN) is the server's message.
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

export function TeamPage() {
  const { t } = useI18n();
  const can = useCan();
  const team = useLoad(() => get<Team>('/team'), []);
  const action = useAction();
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Member | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
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
      {inviting && <InviteDialog onClose={() => setInviting(false)} />}
      {removing && (
        <Confirm
          title={t('removeMemberTitle', { name: removing.name || removing.email })}
          text={t('removeMemberText')}
          confirm={t('confirmRemove')}
          action={() => del(`/team/members/${encodeURIComponent(removing.userId)}`)}
          onClose={(removed) => {
            setRemoving(undefined);
            if (removed) team.reload();
          }}
        />
      )}
    </>
  );
}

function InviteDialog({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const action = useAction();
  const [url, setUrl] = useState<string | undefined>(undefined);
  const email = useRef<HTMLInputElement>(null);
  const role = useRef<HTMLSelectElement>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    const answer = await action.run(() => post<{ url: string; expiresAt: string }>('/team/invitations', { email: email.current!.value.trim(), role: role.current!.value }));
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
          <Field label={t('email')}>
            <input ref={email} type="email" required maxLength={254} />
          </Field>
          <Field label={t('role')}>
            <select ref={role}>
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
