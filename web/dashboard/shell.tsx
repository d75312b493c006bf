/**
 * The frame of every signed-in page: the company and environment, the
 * language switch, the navigation (a menu button opens it on a phone), the
 * sign-out button, and the page in a <main>. Links the role cannot use are
 * not shown.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { del, put } from './api.js';
import { useI18n } from './i18n.js';
import { BASE, Link, navigate, useLocation } from './router.js';
import { useSession, type Me, type Permission } from './session.js';
import type { TextKey } from './texts.js';

interface NavItem {
  href: string;
  label: TextKey;
  needs?: Permission;
}

const NAV: readonly NavItem[] = [
  { href: BASE, label: 'navHome', needs: 'sales.read' },
  { href: `${BASE}/transactions`, label: 'navTransactions', needs: 'sales.read' },
  { href: `${BASE}/links`, label: 'navLinks', needs: 'links.read' },
  { href: `${BASE}/receivables`, label: 'navReceivables', needs: 'receivables.read' },
  { href: `${BASE}/developers`, label: 'navDevelopers', needs: 'developers.read' },
  { href: `${BASE}/team`, label: 'navTeam', needs: 'team.write' },
  { href: `${BASE}/audit`, label: 'navAudit', needs: 'audit.read' },
  { href: `${BASE}/account`, label: 'navAccount' },
];

export function LanguageSwitch() {
  const { t, locale, setLocale } = useI18n();
  return (
    <button type="button" class="link-button" lang={locale === 'en' ? 'pt-BR' : 'en'} onClick={() => setLocale(locale === 'en' ? 'pt-BR' : 'en')}>
      {t('languageSwitch')}
    </button>
  );
}

export function Shell({ children }: { children: ComponentChildren }) {
  const { t } = useI18n();
  const { me, setMe, signOut } = useSession();
  const { path } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const visible = NAV.filter((item) => !item.needs || me.permissions.includes(item.needs));
  // A phone's menu closes when the page changes, whichever link changed it; the focus goes to the
  // new page's content (not on the first page), so a keyboard or a screen reader starts there.
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  useEffect(() => {
    setMenuOpen(false);
    if (first.current) first.current = false;
    else main.current?.focus();
  }, [path]);
  // The window's title names the page (screen readers announce it, tabs show it).
  const current = visible.find((item) => isCurrent(path, item.href));
  useEffect(() => {
    document.title = current ? `${t(current.label)} · ${me.company.name}` : t('appName');
  }, [current?.label, me.company.name, t]);

  const switchCompany = async (companyId: string) => {
    const next = await put<Me>('/session/company', { companyId }).catch(() => undefined);
    if (next) {
      setMe(next);
      navigate(BASE);
    }
  };
  const leave = async () => {
    await del('/session').catch(() => undefined);
    signOut();
  };

  return (
    <div class="shell">
      <a class="skip" href="#content">
        {t('skipToContent')}
      </a>
      <header class="topbar">
        <button type="button" class="menu-button" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen(!menuOpen)}>
          {t('menu')}
        </button>
        <span class="brand">{t('appName')}</span>
        <span class={`env env-${me.environment}`}>
          <span class="visually-hidden">{t('environment')}: </span>
          {t(me.environment === 'sandbox' ? 'envSandbox' : 'envProduction')}
        </span>
        {me.companies.length > 1 ? (
          <label class="company-switch">
            <span class="visually-hidden">{t('company')}</span>
            <select value={me.company.id} onChange={(e) => void switchCompany(e.currentTarget.value)}>
              {me.companies.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span class="company">
            <span class="visually-hidden">{t('company')}: </span>
            {me.company.name}
          </span>
        )}
        <span class="spacer" />
        <LanguageSwitch />
      </header>
      <div class="layout">
        <nav id="main-nav" class={menuOpen ? 'nav open' : 'nav'} aria-label={t('navLabel')}>
          <ul>
            {visible.map((item) => (
              <li key={item.href}>
                <Link href={item.href} aria-current={isCurrent(path, item.href) ? 'page' : undefined}>
                  {t(item.label)}
                </Link>
              </li>
            ))}
          </ul>
          <p class="who">
            {me.user.name || me.user.email} · {t(`role_${me.role}`)}
          </p>
          <button type="button" class="secondary" onClick={() => void leave()}>
            {t('signOut')}
          </button>
        </nav>
        <main id="content" ref={main} class="content" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}

const isCurrent = (path: string, href: string) => (href === BASE ? path === BASE : path === href || path.startsWith(`${href}/`));
