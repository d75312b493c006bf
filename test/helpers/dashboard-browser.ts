/**
 * What the dashboard's browser tests share: the two widths every page is
 * checked at, a page opened with its console and CSP reports collected, the
 * axe-core check (no serious or critical violation), the no-sideways-scroll
 * check, and a stand-in for the JSON API (page.route) for the tests of the
 * pages themselves.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import type { Browser, BrowserContextOptions, Page, Route } from 'playwright-core';

export const VIEWPORTS = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 860 } } },
  { name: 'phone', options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } },
] as const satisfies readonly { name: string; options: BrowserContextOptions }[];

export type Viewport = (typeof VIEWPORTS)[number];

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface OpenPage {
  page: Page;
  /** Script errors and CSP reports seen so far. */
  problems: string[];
}

/** A new context at `shape`'s size with one page; nothing is loaded yet. */
export async function newPage(browser: Browser, shape: Viewport): Promise<OpenPage> {
  const context = await browser.newContext({ ...shape.options, locale: 'pt-BR' });
  const page = await context.newPage();
  // A page of ours answers in milliseconds: a missing label fails in seconds, not the default 30.
  page.setDefaultTimeout(8_000);
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(m.text());
    else if (/Content Security Policy/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(String(e)));
  return { page, problems };
}

/**
 * axe-core over the page as it is now: no serious or critical violation. axe
 * runs through the DevTools protocol (page.evaluate), which the page's CSP
 * does not govern, so the page keeps its real policy.
 */
export async function assertAccessible(page: Page, what: string): Promise<void> {
  const loaded = await page.evaluate('typeof window.axe');
  if (loaded !== 'object') await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(`window.axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })))`)) as { id: string; impact: string; nodes: string[] }[];
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad, [], `${what}: axe found ${JSON.stringify(bad)}`);
}

/**
 * The page never scrolls sideways: the document is no wider than the
 * viewport asked for. (Not innerWidth: a phone widens its layout viewport to
 * content that overflows, and innerWidth with it.)
 */
export async function assertNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const width = page.viewportSize()!.width;
  const { scroll, inner, wide } = (await page.evaluate(
    `({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth, wide: [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > ${width} + 1 && !e.closest('.table-wrap')).slice(0, 5).map((e) => e.tagName + '.' + e.className) })`,
  )) as { scroll: number; inner: number; wide: string[] };
  assert.ok(scroll <= width && inner <= width, `${what}: the page is ${scroll}px wide (layout viewport ${inner}px) in a ${width}px viewport: ${wide.join(', ')}`);
}

export type Handler = (request: { method: string; path: string; query: URLSearchParams; body: unknown; headers: Record<string, string> }) => { status?: number; body?: unknown } | undefined;

/**
 * Answers the page's calls to /dashboard/api with `handler` (JSON; a handler
 * that returns undefined answers 404 NOT_FOUND). Every call is recorded.
 */
export async function standInApi(page: Page, handler: Handler): Promise<{ method: string; path: string; headers: Record<string, string>; body: unknown }[]> {
  const calls: { method: string; path: string; headers: Record<string, string>; body: unknown }[] = [];
  await page.route('**/dashboard/api/**', async (route: Route) => {
    const request = route.request();
    const url = new URL(request.url());
    const path = url.pathname.slice('/dashboard/api'.length);
    const text = request.postData();
    const body = text ? (JSON.parse(text) as unknown) : undefined;
    const headers = request.headers();
    calls.push({ method: request.method(), path, headers, body });
    const answer = handler({ method: request.method(), path, query: url.searchParams, body, headers }) ?? { status: 404, body: { code: 'NOT_FOUND', message: 'Não encontrado' } };
    await route.fulfill({
      status: answer.status ?? 200,
      contentType: 'application/json',
      body: answer.body === undefined ? '' : JSON.stringify(answer.body),
    });
  });
  return calls;
}
