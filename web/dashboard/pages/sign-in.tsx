/**
 * Sign-in: E-mail and Senha, then, for a user with two-step verification,
 * Código. The server's message is shown as it is (a wrong e-mail and a wrong
 * password read the same; a locked e-mail says for how long). Too many wrong
 * codes end the half-open session and lock the e-mail: the page goes back to
 * E-mail and Senha with the lock's message.
 *
 * The two steps are two keyed forms: unkeyed, Preact would reuse the e-mail's
 * input element for the code (same place in the tree), value included, and a
 * browser would autofill it as the username. The code is a one-time-code
 * field of its own name, numeric on a phone; "Usar um código de recuperação"
 * gives it a keyboard with letters (the same field takes either code).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, post } from '../api.js';
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
  const [recovery, setRecovery] = useState(false);
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
    const typed = code.current!.value.trim();
    const answer = await action.run(() =>
      post<Answer>('/session/totp', { code: typed }).catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 429) setStage('password');
        throw err;
      }),
    );
    done(answer);
  };

  return (
    <Standalone title={t('signInTitle')}>
      {stage === 'password' ? (
        <form class="panel" key="password" onSubmit={submitPassword}>
          <Field label={t('email')}>
            <input ref={email} type="email" name="email" autoComplete="username" required maxLength={254} />
          </Field>
          <PasswordField label={t('password')} inputRef={password} name="password" autoComplete="current-password" />
          <Submit action={action} label={t('signIn')} />
        </form>
      ) : (
        <form class="panel" key="totp" onSubmit={submitCode}>
          <p>{t('totpPrompt')}</p>
          <Field label={t('code')}>
            <input
              ref={code}
              name="totp-code"
              autoComplete="one-time-code"
              inputMode={recovery ? 'text' : 'numeric'}
              autoCapitalize="none"
              spellcheck={false}
              required
              maxLength={32}
            />
          </Field>
          <p>
            <button type="button" class="link-button" onClick={() => setRecovery(!recovery)}>
              {recovery ? t('useAppCode') : t('useRecoveryCode')}
            </button>
          </p>
          <Submit action={action} label={t('verify')} />
        </form>
      )}
    </Standalone>
  );
}
