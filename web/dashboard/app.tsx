/**
 * The application: the language, the session (asked of the server at start;
 * a 401 from any call sends the person to sign-in), and which page the
 * address shows. Sign-in and the invitation need no session; every other
 * page is inside the shell, and one the role cannot use says so.
 */
import type { ComponentType } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, configureApi, get, rememberSession } from './api.js';
import { ErrorBox } from './components/feedback.js';
import { I18nContext, initialLocale, saveLocale, translator, type I18n, type Locale } from './i18n.js';
import { AccountPage } from './pages/account.js';
import { AuditPage } from './pages/audit.js';
import { DevelopersPage } from './pages/developers.js';
import { HomePage } from './pages/home.js';
import { InvitationPage } from './pages/invitation.js';
import { LinksPage } from './pages/links.js';
import { ReceivablesPage } from './pages/receivables.js';
import { SalePage } from './pages/sale.js';
import { ReceiptPage } from './pages/receipt.js';
import { SignInPage } from './pages/sign-in.js';
import { TeamPage } from './pages/team.js';
import { TransactionsPage } from './pages/transactions.js';
import { BASE, match, navigate, useLocation } from './router.js';
import { SessionContext, type Me, type Permission } from './session.js';
import { Shell } from './shell.js';

const SIGN_IN = `${BASE}/login`;
const INVITATION = `${BASE}/invitation`;

interface Route {
  pattern: string;
  page: ComponentType<{ params: Record<string, string> }>;
  needs?: Permission;
}

const ROUTES: readonly Route[] = [
  { pattern: BASE, page: HomePage, needs: 'sales.read' },
  { pattern: `${BASE}/transactions`, page: TransactionsPage, needs: 'sales.read' },
  { pattern: `${BASE}/transactions/:id`, page: SalePage, needs: 'sales.read' },
  { pattern: `${BASE}/transactions/:id/receipt`, page: ReceiptPage, needs: 'sales.read' },
  { pattern: `${BASE}/links`, page: LinksPage, needs: 'links.read' },
  { pattern: `${BASE}/receivables`, page: ReceivablesPage, needs: 'receivables.read' },
  { pattern: `${BASE}/developers`, page: DevelopersPage, needs: 'developers.read' },
  { pattern: `${BASE}/team`, page: TeamPage, needs: 'team.read' },
  { pattern: `${BASE}/audit`, page: AuditPage, needs: 'audit.read' },
  { pattern: `${BASE}/account`, page: AccountPage },
];

export function App() {
  const [locale, setLocale] = useState<Locale>(initialLocale);
  const i18n = useMemo<I18n>(
    () => ({
      locale,
      t: translator(locale),
      setLocale: (next) => {
        saveLocale(next);
        setLocale(next);
      },
    }),
    [locale],
  );
  const [me, setMeState] = useState<Me | undefined>(undefined);
  const [checked, setChecked] = useState(false);
  const [bootError, setBootError] = useState<unknown>(undefined);
  const where = useLocation();

  const setMe = (next: Me | undefined) => {
    rememberSession(next);
    setMeState(next);
  };
  const signOut = () => {
    setMe(undefined);
    navigate(SIGN_IN);
  };

  // After a 403 the shell shows what the role may do now (a stale page learns its new role; the refusal itself stays on the page).
  const refreshSession = () => void get<Me>('/session').then(setMe, () => undefined);
  configureApi({ locale, networkMessage: i18n.t('networkError'), onUnauthorized: signOut, onForbidden: refreshSession });
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  const open = where.path === SIGN_IN || where.path === INVITATION;
  useEffect(() => {
    if (open || me) return setChecked(true);
    get<Me>('/session').then(
      (session) => {
        setMe(session);
        setChecked(true);
      },
      (err: unknown) => {
        // A 401 has already sent the person to sign-in.
        if (!(err instanceof ApiError && err.status === 401)) setBootError(err);
        setChecked(true);
      },
    );
  }, [open, me === undefined]);

  let body;
  if (where.path === SIGN_IN) body = <SignInPage onSignedIn={(session) => setMe(session)} />;
  else if (where.path === INVITATION) body = <InvitationPage onSignedIn={(session) => setMe(session)} />;
  else if (!checked || !me) body = bootError ? <ErrorBox error={bootError} /> : <p class="boot">{i18n.t('loading')}</p>;
  else body = <SessionContext.Provider value={{ me, setMe, signOut }}>{signedIn(me, where.path, i18n)}</SessionContext.Provider>;

  return <I18nContext.Provider value={i18n}>{body}</I18nContext.Provider>;
}

function signedIn(me: Me, path: string, i18n: I18n) {
  // A company that requires two-step verification lets a member without it only set it up.
  const target = me.totpSetupRequired ? `${BASE}/account` : path;
  for (const route of ROUTES) {
    const params = match(route.pattern, target);
    if (!params) continue;
    const Page = route.page;
    const allowed = !route.needs || me.permissions.includes(route.needs);
    return (
      <Shell>
        {me.totpSetupRequired && <p class="notice">{i18n.t('totpRequiredNotice')}</p>}
        {allowed ? <Page params={params} /> : <p class="error" role="alert">{i18n.t('forbidden')}</p>}
      </Shell>
    );
  }
  return (
    <Shell>
      <h1>{i18n.t('notFoundPage')}</h1>
    </Shell>
  );
}
