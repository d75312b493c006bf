/**
 * Requests to the dashboard's JSON API (/dashboard/api): JSON in and out, the
 * session cookie sent by the browser, the session's CSRF token on every
 * change, and the page's language for the server's messages. A 401 from any
 * call but sign-in itself sends the person to the sign-in page; any other
 * error is thrown as an ApiError carrying the API's code and message.
 */
import type { Locale } from './i18n.js';
import type { Me } from './session.js';

export const API = '/dashboard/api';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: readonly { field?: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface ClientState {
  csrfToken: string | undefined;
  locale: Locale;
  networkMessage: string;
  onUnauthorized: () => void;
  /** A 403: the role may have changed since the page loaded, so the page asks who it is again. */
  onForbidden: () => void;
}

const state: ClientState = { csrfToken: undefined, locale: 'pt-BR', networkMessage: 'Network error', onUnauthorized: () => {}, onForbidden: () => {} };

export function configureApi(settings: Partial<ClientState>): void {
  Object.assign(state, settings);
}

/** Keeps the session's CSRF token from a `Me`, or forgets it (signed out). */
export function rememberSession(me: Me | undefined): void {
  state.csrfToken = me?.csrfToken;
}

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The changes that answer 401 for a wrong password or code, which the page shows instead of leaving. */
const CREDENTIAL_ROUTES = [/^\/session(\/totp)?$/, /^\/invitations\//, /^\/account\//];

interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', 'accept-language': state.locale, ...options.headers };
  if (CHANGES.has(method) && state.csrfToken) headers['x-csrf-token'] = state.csrfToken;
  const init: RequestInit = { method, headers, credentials: 'same-origin' };
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(API + path, init);
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', state.networkMessage);
  }
  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (response.ok) return data as T;
  const body = (data ?? {}) as { code?: string; message?: string; details?: { field?: string; message: string }[] };
  if (response.status === 401 && !(method !== 'GET' && CREDENTIAL_ROUTES.some((route) => route.test(path)))) state.onUnauthorized();
  if (response.status === 403 && path !== '/session') state.onForbidden();
  throw new ApiError(response.status, body.code ?? `HTTP_${response.status}`, body.message ?? `HTTP ${response.status}`, body.details ?? []);
}

export const get = <T>(path: string): Promise<T> => request<T>('GET', path);
export const post = <T>(path: string, body?: unknown, headers?: Record<string, string>): Promise<T> =>
  request<T>('POST', path, { body: body ?? {}, ...(headers ? { headers } : {}) });
export const put = <T>(path: string, body: unknown): Promise<T> => request<T>('PUT', path, { body });
export const del = <T>(path: string, body?: unknown): Promise<T> => request<T>('DELETE', path, body === undefined ? {} : { body });

/** A query string of the set values, in a stable order; empty when none is set. */
export function query(params: Readonly<Record<string, string | undefined>>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) search.set(name, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** A fresh Idempotency-Key: one per dialog, so a double click or a retry of the same dialog acts once. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `dash-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
