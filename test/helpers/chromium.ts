/**
 * Debian's Chromium, which the browser tests (*.browser.test.ts) drive through
 * playwright-core; `npm test` installs it first (scripts/test-prerequisites.mjs).
 */
import type { Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LAUNCH_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

/** Chromium at CHROMIUM, headless, without a desktop profile's background work (networking, component updates, sync). */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
}
