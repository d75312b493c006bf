/**
 * What the dashboard's browser tests share: the two widths every page is
 * checked at, a page opened with its console and CSP reports collected, the
 * axe-core check (no serious or critical violation), the no-sideways-scroll
 * check, and a stand-in for the JSON API (page.route) for the tests of the
 * pages themselves.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
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
  // A page of ours answers in milliseconds, even on a busy machine: a missing label fails in seconds, not the default 30.
  page.setDefaultTimeout(15_000);
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

/** The password the tests give the people they invite (12 characters or more). */
export const MEMBER_PASSWORD = 'uma senha longa o bastante';

/** RFC 6238's code (HMAC-SHA1, 6 digits, 30 s steps) of a base32 secret at `at` (ms), computed here, not by the service. */
export function totp(secretBase32: string, at: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secretBase32.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** Signs in on the sign-in page (E-mail, Senha, Entrar). */
export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

/** Opens an invitation (its address taken onto `baseUrl`: the CLI prints its own PUBLIC_API_URL) and activates it as a new user; ends on Início. */
export async function activate(page: Page, baseUrl: string, invitationUrl: string, name: string): Promise<void> {
  const url = new URL(invitationUrl);
  await page.goto(baseUrl + url.pathname + url.hash);
  await page.getByLabel('Nome').fill(name);
  await page.getByLabel('Senha', { exact: true }).fill(MEMBER_PASSWORD);
  await page.getByLabel('Confirme a senha').fill(MEMBER_PASSWORD);
  await page.getByRole('button', { name: 'Ativar acesso' }).click();
  await page.getByRole('heading', { name: 'Início', level: 1 }).waitFor();
}

/** Invites `email` as `role` from the Equipe page `page` shows (an admin's), and answers the invitation's address the dialog shows. */
export async function invite(page: Page, email: string, role: string): Promise<string> {
  await page.getByRole('button', { name: 'Convidar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Convidar para a equipe' });
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByLabel('Papel').selectOption({ label: role });
  await dialog.getByRole('button', { name: 'Gerar convite' }).click();
  const url = await dialog.getByLabel('Endereço do convite').inputValue();
  await dialog.getByRole('button', { name: 'Fechar' }).click();
  return url;
}

/**
 * A call of the JSON API with the page's own session, as the page would make
 * it (its cookie, its CSRF token, its Origin): the server, not the hidden
 * button, must refuse what the role may not do.
 */
export async function asThePage(page: Page, baseUrl: string, method: string, pathname: string, body?: unknown): Promise<{ status: number; json: Record<string, any> }> {
  const me = await page.request.get(`${baseUrl}/dashboard/api/session`);
  const csrf = me.ok() ? String(((await me.json()) as { csrfToken?: string }).csrfToken ?? '') : '';
  const res = await page.request.fetch(`${baseUrl}/dashboard/api${pathname}`, {
    method,
    headers: { origin: baseUrl, 'x-csrf-token': csrf, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { data: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status(), json: text ? (JSON.parse(text) as Record<string, any>) : {} };
}
