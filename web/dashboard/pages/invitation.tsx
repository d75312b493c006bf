/**
 * An invitation (/dashboard/invitation#<token>): the token stays in the
 * address's fragment, which no request or referrer carries; the page sends
 * it to the API in request bodies only (POST /invitations/lookup and
 * /invitations/accept), never in a path or a query, which logs keep. What the
 * lookup answers does not say whether the e-mail has a user (the admin who
 * made the invitation holds the token too): a new person chooses a name and a
 * password; a person who already has access ticks "Já tenho acesso" and gives
 * that password only. Accepting says which it was: a password alone for an
 * e-mail with no user is 400 naming `name`, and the page then asks for it.
 * With two-step verification on, a code follows, and the membership is made
 * only then.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, post } from '../api.js';
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
}

export function InvitationPage({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const { t } = useI18n();
  useEffect(() => {
    document.title = t('invitationTitle');
  }, [t]);
  const { hash } = useLocation();
  const token = hash.replace(/^#/, '');
  const invitation = useLoad(() => (token ? post<Invitation>('/invitations/lookup', { token }) : Promise.reject(new ApiError(404, 'NOT_FOUND', ''))), [token]);
  const action = useAction();
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [existing, setExisting] = useState(false);
  const name = useRef<HTMLInputElement>(null);
  const password = useRef<HTMLInputElement>(null);
  const confirmation = useRef<HTMLInputElement>(null);
  const code = useRef<HTMLInputElement>(null);
  const [codeStep, setCodeStep] = useState(false);

  const signedIn = (me: Me | undefined) => {
    if (!me) return;
    onSignedIn(me);
    navigate(BASE, { replace: true });
  };
  const submitCode = async (event: Event) => {
    event.preventDefault();
    const typed = code.current!.value.trim();
    const me = await action.run(() =>
      post<Me>('/session/totp', { code: typed }).catch((err: unknown) => {
        // Too many wrong codes end the half-open session: the password again, after the lock.
        if (err instanceof ApiError && err.status === 429) setCodeStep(false);
        throw err;
      }),
    );
    signedIn(me);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    const typed = password.current!.value;
    if (!existing && isPasswordTooShort(typed)) return setProblem(t('passwordTooShort'));
    if (!existing && typed !== confirmation.current!.value) return setProblem(t('passwordsDiffer'));
    setProblem(undefined);
    const body = existing ? { token, password: typed } : { token, name: name.current!.value.trim(), password: typed, passwordConfirmation: confirmation.current!.value };
    const answer = await action.run(() => post<Me | { stage: 'totp' }>('/invitations/accept', body));
    if (answer?.stage === 'totp') return setCodeStep(true);
    signedIn(answer);
  };

  // A password alone for an e-mail that has no user yet: ask for the name and the confirmation.
  const needsName = existing && action.error instanceof ApiError && action.error.status === 400 && action.error.details.some((d) => d.field === 'name');
  useEffect(() => {
    if (needsName) {
      setExisting(false);
      setProblem(t('invitationNeedsName'));
      action.clear();
    }
  }, [needsName]);

  const found = invitation.data;
  return (
    <Standalone title={t('invitationTitle')}>
      {invitation.loading && <p>{t('loading')}</p>}
      {!invitation.loading && !found && (
        <p class="error" role="alert">
          {invitation.error instanceof ApiError && invitation.error.status !== 404 ? invitation.error.message : t('invitationMissing')}
        </p>
      )}
      {found && codeStep && (
        <form class="panel" onSubmit={submitCode}>
          <p>{t('totpPrompt')}</p>
          <Field label={t('code')}>
            <input ref={code} name="code" autoComplete="one-time-code" inputMode="text" required maxLength={32} />
          </Field>
          <Submit action={action} label={t('verify')} />
        </form>
      )}
      {found && !codeStep && (
        <form class="panel" onSubmit={submit} noValidate>
          <p>{t('invitationFor', { email: found.email, company: found.companyName, role: t(`role_${found.role}`) })}</p>
          <label class="check">
            <input type="checkbox" checked={existing} onChange={(e) => setExisting(e.currentTarget.checked)} />
            <span>{t('invitationExisting')}</span>
          </label>
          {!existing && (
            <Field label={t('name')}>
              <input ref={name} name="name" autoComplete="name" required maxLength={255} />
            </Field>
          )}
          <PasswordField label={t('password')} inputRef={password} name="password" autoComplete={existing ? 'current-password' : 'new-password'} describedBy={existing ? undefined : 'password-rule'} />
          {!existing && (
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
