/**
 * Minha conta: change the password (the other sessions end), and turn on
 * two-step verification (the password re-entered, then QR code and secret, a
 * code to confirm, then the 10 recovery codes, shown once) or off (with the
 * password and a current code or a recovery code). Turning it on or off ends
 * the other sessions too.
 */
import { useRef, useState } from 'preact/hooks';
import { isPasswordTooShort } from '../../../src/modules/users/password-rule.js';
import { del, get, post } from '../api.js';
import { Field, PasswordField, Problem } from '../components/fields.js';
import { ErrorBox, Notice } from '../components/feedback.js';
import { useAction } from '../components/load.js';
import { useI18n } from '../i18n.js';
import { useSession, type Me } from '../session.js';

interface TotpSetup {
  secret: string;
  uri: string;
  qrCode: string;
}

export function AccountPage() {
  const { t } = useI18n();
  return (
    <>
      <h1>{t('accountTitle')}</h1>
      <TwoStep />
      <ChangePassword />
    </>
  );
}

function ChangePassword() {
  const { t } = useI18n();
  const action = useAction();
  const [done, setDone] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const current = useRef<HTMLInputElement>(null);
  const next = useRef<HTMLInputElement>(null);
  const confirmation = useRef<HTMLInputElement>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setDone(false);
    if (isPasswordTooShort(next.current!.value)) return setProblem(t('passwordTooShort'));
    if (next.current!.value !== confirmation.current!.value) return setProblem(t('passwordsDiffer'));
    setProblem(undefined);
    const ok = await action.run(() => post<null>('/account/password', { currentPassword: current.current!.value, newPassword: next.current!.value }).then(() => true));
    if (ok) {
      (event.target as HTMLFormElement).reset();
      setDone(true);
    }
  };
  return (
    <section class="panel" aria-labelledby="password-title">
      <h2 id="password-title">{t('changePasswordTitle')}</h2>
      <form onSubmit={submit} noValidate>
        <PasswordField label={t('currentPassword')} inputRef={current} autoComplete="current-password" />
        <PasswordField label={t('newPassword')} inputRef={next} autoComplete="new-password" />
        <PasswordField label={t('confirmPassword')} inputRef={confirmation} autoComplete="new-password" />
        <Problem text={problem} />
        <ErrorBox error={action.error} />
        <Notice text={done ? t('passwordChanged') : undefined} />
        <button type="submit" class="primary" disabled={action.busy}>
          {t('changePassword')}
        </button>
      </form>
    </section>
  );
}

function TwoStep() {
  const { t } = useI18n();
  const { me, setMe } = useSession();
  const action = useAction();
  const [setup, setSetup] = useState<TotpSetup | undefined>(undefined);
  const [recovery, setRecovery] = useState<string[] | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const code = useRef<HTMLInputElement>(null);
  const password = useRef<HTMLInputElement>(null);
  const offCode = useRef<HTMLInputElement>(null);

  const start = async (event: Event) => {
    event.preventDefault();
    setNotice(undefined);
    setSetup(await action.run(() => post<TotpSetup>('/account/totp', { password: password.current!.value })));
  };
  const confirm = async (event: Event) => {
    event.preventDefault();
    const answer = await action.run(() => post<{ recoveryCodes: string[] }>('/account/totp/confirm', { code: code.current!.value.trim() }));
    if (!answer) return;
    setSetup(undefined);
    setRecovery(answer.recoveryCodes);
    // The session now has two steps (and a company that required them opens its pages).
    const fresh = await get<Me>('/session').catch(() => undefined);
    if (fresh) setMe(fresh);
  };
  const disable = async (event: Event) => {
    event.preventDefault();
    const ok = await action.run(() => del<null>('/account/totp', { password: password.current!.value, code: offCode.current!.value.trim() }).then(() => true));
    if (!ok) return;
    setNotice(t('totpDisabled'));
    const fresh = await get<Me>('/session').catch(() => undefined);
    if (fresh) setMe(fresh);
  };

  return (
    <section class="panel" aria-labelledby="totp-title">
      <h2 id="totp-title">{t('totpTitle')}</h2>
      <p>{me.user.totpEnabled ? t('totpOn') : t('totpOff')}</p>
      <Notice text={notice} />
      {recovery && (
        <div class="recovery">
          <h3>{t('recoveryTitle')}</h3>
          <p>{t('recoveryNote')}</p>
          <ol class="codes mono" aria-label={t('recoveryTitle')}>
            {recovery.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ol>
        </div>
      )}
      {!me.user.totpEnabled && !setup && (
        <form onSubmit={start}>
          <p>{t('totpEnableNote')}</p>
          <PasswordField label={t('password')} inputRef={password} autoComplete="current-password" />
          <button type="submit" class="primary" disabled={action.busy}>
            {t('totpEnable')}
          </button>
        </form>
      )}
      {setup && (
        <form onSubmit={confirm}>
          <p>{t('totpScan')}</p>
          <img class="qr" src={setup.qrCode} alt={t('totpQrAlt')} width={200} height={200} />
          <p>
            {t('totpSecret')}: <code class="mono secret">{setup.secret}</code>
          </p>
          <Field label={t('code')}>
            <input ref={code} autoComplete="one-time-code" inputMode="numeric" required maxLength={6} />
          </Field>
          <button type="submit" class="primary" disabled={action.busy}>
            {t('totpConfirm')}
          </button>
        </form>
      )}
      {me.user.totpEnabled && !recovery && (
        <form onSubmit={disable}>
          <p>{t('totpDisableNote')}</p>
          <PasswordField label={t('password')} inputRef={password} autoComplete="current-password" />
          <Field label={t('code')}>
            <input ref={offCode} name="code" autoComplete="one-time-code" inputMode="text" required maxLength={32} />
          </Field>
          <button type="submit" class="secondary" disabled={action.busy}>
            {t('totpDisable')}
          </button>
        </form>
      )}
      <ErrorBox error={action.error} />
    </section>
  );
}
