/** A page outside the signed-in shell (Entrar, an invitation): the brand, the language switch and the page's h1. */
import type { ComponentChildren } from 'preact';
import { useI18n } from '../i18n.js';
import { LanguageSwitch } from '../shell.js';

export function Standalone({ title, children }: { title: string; children: ComponentChildren }) {
  const { t } = useI18n();
  return (
    <div class="standalone">
      <header class="topbar">
        <span class="brand">{t('appName')}</span>
        <span class="spacer" />
        <LanguageSwitch />
      </header>
      <main id="content" class="narrow">
        <h1>{title}</h1>
        {children}
      </main>
    </div>
  );
}
