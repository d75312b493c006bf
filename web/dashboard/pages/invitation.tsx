/**
 * An invitation (/dashboard/invitation#<token>): the token stays in the
 * address's fragment, which no request or referrer carries; the page sends
 * it to the API only. A new user chooses a name and a password; a person who
 * already has a user confirms with that password.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, get, post } from '../api.js';
import { isPasswordTooShort } from '../../../src/modules/users/password-rule.js';
import { Field, PasswordField, Problem, Submit } from '../components/fields.js';
import { Standalone } from '../components/standalone.js';
import { useAction, useLoad } from '../components/load.js';
import { useI18n } from '../i18n.js';
import { BASE, navigate, useLocation } from '../router.js';
import type { Me, Role } from '../session.js';

interface Invitation {
  email: string;
  companyName: string;
  role: Role;
  existingUser: boolean;
}

export function InvitationPage({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const { t } = useI18n();
  useEffect(() => {
    document.title = t('invitationTitle');
  }, [t]);
  const { hash } = useLocation();
  const token = hash.replace(/^#/, '');
  const invitation = useLoad(() => (token ? get<Invitation>(`/invitations/${encodeURIComponent(token)}`) : Promise.reject(new ApiError(404, 'NOT_FOUND', ''))), [token]);
  const action = useAction();
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const name = useRef<HTMLInputElement>(null);
  const password = useRef<HTMLInputElement>(null);
  const confirmation = useRef<HTMLInputElement>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    const existing = invitation.data?.existingUser;
    const typed = password.current!.value;
    if (!existing && isPasswordTooShort(typed)) return setProblem(t('passwordTooShort'));
    if (!existing && typed !== confirmation.current!.value) return setProblem(t('passwordsDiffer'));
    setProblem(undefined);
    const body = existing ? { password: typed } : { name: name.current!.value.trim(), password: typed, passwordConfirmation: confirmation.current!.value };
    const me = await action.run(() => post<Me>(`/invitations/${encodeURIComponent(token)}`, body));
    if (me) {
      onSignedIn(me);
      navigate(BASE, { replace: true });
    }
  };

  const found = invitation.data;
  return (
    <Standalone title={t('invitationTitle')}>
      {invitation.loading && <p>{t('loading')}</p>}
      {!invitation.loading && !found && (
        <p class="error" role="alert">
          {invitation.error instanceof ApiError && invitation.error.status !== 404 ? invitation.error.message : t('invitationMissing')}
        </p>
      )}
      {found && (
        <form class="panel" onSubmit={submit} noValidate>
          <p>{t('invitationFor', { email: found.email, company: found.companyName, role: t(`role_${found.role}`) })}</p>
          {found.existingUser && <p class="muted">{t('invitationExisting')}</p>}
          {!found.existingUser && (
            <Field label={t('name')}>
              <input ref={name} name="name" autoComplete="name" required maxLength={255} />
            </Field>
          )}
          <PasswordField label={t('password')} inputRef={password} name="password" autoComplete={found.existingUser ? 'current-password' : 'new-password'} describedBy={found.existingUser ? undefined : 'password-rule'} />
          {!found.existingUser && (
            <>
              <p id="password-rule" class="muted small">
                {t('passwordRule')}
              </p>
              <PasswordField label={t('confirmPassword')} inputRef={confirmation} name="passwordConfirmation" autoComplete="new-password" />
            </>
          )}
          <Problem text={problem} />
          <Submit action={action} label={t('activate')} />
        </form>
      )}
    </Standalone>
  );
}
