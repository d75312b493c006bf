/**
 * The dashboard's entry (bundled by scripts/build-web.mjs into
 * dist/web/dashboard/dashboard.js): renders the application and installs the
 * copy buttons every page shares (web/shared/copy.js).
 */
import { render } from 'preact';
import { installCopyButtons } from '../shared/copy.js';
import { App } from './app.js';
import { initialLocale, translator } from './i18n.js';

installCopyButtons(() => translator(document.documentElement.lang === 'en' ? 'en' : initialLocale())('copied'));
const root = document.getElementById('app')!;
// The page's "Carregando…" goes: Preact adds to a container, it does not replace what the HTML put there.
root.replaceChildren();
render(<App />, root);
