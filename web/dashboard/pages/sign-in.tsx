/**
 * Sign-in: E-mail and Senha, then, for a user with two-step verification,
 * Código. The server's message is shown as it is (a wrong e-mail and a wrong
 * password read the same; a locked e-mail says for how long).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { post } from '../api.js';
import { Field, PasswordField, Submit } from '../components/fields.js';
import { Standalone } from '../components/standalone.js';
import { useAction } from '../components/load.js';
import { useI18n } from '../i18n.js';
import { BASE, navigate } from '../router.js';
import type { Me } from '../session.js';

type Answer = Me | { stage: 'totp' };

export function SignInPage({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const { t } = useI18n();
  useEffect(() => {
    document.title = t('signInTitle');
  }, [t]);
  const [stage, setStage] = useState<'password' | 'totp'>('password');
  const action = useAction();
  const email = useRef<HTMLInputElement>(null);
  const password = useRef<HTMLInputElement>(null);
  const code = useRef<HTMLInputElement>(null);

  const done = (answer: Answer | undefined) => {
    if (!answer) return;
    if (answer.stage === 'totp') {
      setStage('totp');
      return;
    }
    onSignedIn(answer);
    navigate(BASE, { replace: true });
  };

  const submitPassword = async (event: Event) => {
    event.preventDefault();
    done(await action.run(() => post<Answer>('/session', { email: email.current!.value.trim(), password: password.current!.value })));
  };
  const submitCode = async (event: Event) => {
    event.preventDefault();
    done(await action.run(() => post<Answer>('/session/totp', { code: code.current!.value.trim() })));
  };

  return (
    <Standalone title={t('signInTitle')}>
      {stage === 'password' ? (
        <form class="panel" onSubmit={submitPassword}>
          <Field label={t('email')}>
            <input ref={email} type="email" name="email" autoComplete="username" required maxLength={254} />
          </Field>
          <PasswordField label={t('password')} inputRef={password} name="password" autoComplete="current-password" />
          <Submit action={action} label={t('signIn')} />
        </form>
      ) : (
        <form class="panel" onSubmit={submitCode}>
          <p>{t('totpPrompt')}</p>
          <Field label={t('code')}>
            <input ref={code} name="code" autoComplete="one-time-code" inputMode="text" required maxLength={32} />
          </Field>
          <Submit action={action} label={t('verify')} />
        </form>
      )}
    </Standalone>
  );
}
