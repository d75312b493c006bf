/**
 * Sign-in: E-mail and Senha, then, for a user with two-step verification,
 * Código. The server's message is shown as it is (a wrong e-mail and a wrong
 * password read the same; a locked e-mail says for how long).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { post } from '../api.js';
import { ErrorBox } from '../components/feedback.js';
import { useAction } from '../components/load.js';
import { useI18n } from '../i18n.js';
import { BASE, navigate } from '../router.js';
import type { Me } from '../session.js';
import { LanguageSwitch } from '../shell.js';

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
    <div class="standalone">
      <header class="topbar">
        <span class="brand">{t('appName')}</span>
        <span class="spacer" />
        <LanguageSwitch />
      </header>
      <main id="content" class="narrow">
        <h1>{t('signInTitle')}</h1>
        {stage === 'password' ? (
          <form class="panel" onSubmit={submitPassword}>
            <label class="field">
              <span>{t('email')}</span>
              <input ref={email} type="email" name="email" autoComplete="username" required maxLength={254} />
            </label>
            <label class="field">
              <span>{t('password')}</span>
              <input ref={password} type="password" name="password" autoComplete="current-password" required maxLength={256} />
            </label>
            <ErrorBox error={action.error} />
            <button type="submit" class="primary" disabled={action.busy}>
              {t('signIn')}
            </button>
          </form>
        ) : (
          <form class="panel" onSubmit={submitCode}>
            <p>{t('totpPrompt')}</p>
            <label class="field">
              <span>{t('code')}</span>
              <input ref={code} name="code" autoComplete="one-time-code" inputMode="text" required maxLength={32} />
            </label>
            <ErrorBox error={action.error} />
            <button type="submit" class="primary" disabled={action.busy}>
              {t('verify')}
            </button>
          </form>
        )}
      </main>
    </div>
  );
}
