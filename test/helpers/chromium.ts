/**
 * Debian's Chromium, which the browser tests (*.browser.test.ts) drive through
 * playwright-core; `npm test` installs it first (scripts/test-prerequisites.mjs).
 *
 * A run of the suite launches one Chromium for all its browser files
 * (launchChromiumServer, from scripts/test.mjs) and each file connects to it:
 * a launch and a browser's first page cost 2–3 s of CPU, once per run instead
 * of once per file. Each file still works in contexts of its own, closed when
 * it disconnects. A file run without the runner launches its own.
 */
import type { Browser, BrowserServer } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LAUNCH_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];
/** The run's shared browser (its WebSocket endpoint), set by scripts/test.mjs. */
const SHARED_ENDPOINT = 'SVC_TEST_CHROMIUM_ENDPOINT';

/** Chromium at CHROMIUM, headless, without a desktop profile's background work (networking, component updates, sync): the run's, or one of this process's own. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const endpoint = process.env[SHARED_ENDPOINT];
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
}

/**
 * Launches the Chromium a whole run shares; `env` passes it to the test processes.
 *
 * @public scripts/test.mjs loads this file (compiled), out of sight of static analysis.
 */
export async function launchChromiumServer(): Promise<{ env: Record<string, string>; server: BrowserServer }> {
  const { chromium } = await import('playwright-core');
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  return { env: { [SHARED_ENDPOINT]: server.wsEndpoint() }, server };
}
