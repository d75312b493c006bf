/**
 * HTTPS to a PSP's API Pix: mutual TLS with the certificate the PSP issued
 * (presented on every call, the token call included) and an OAuth2
 * client-credentials token, cached until a minute before it expires and
 * fetched again once when the API answers 401. Every call has a timeout; a
 * timeout, a network error or a 5xx is ProviderUnavailable (the outcome is
 * unknown). No message built here carries the token or the client secret.
 */
import fs from 'node:fs';
import tls from 'node:tls';
import { Agent, request } from 'undici';
import { ConfigError, type BcbPixConfig } from '../../../config.js';
import type { Clock } from '../../../lib/clock.js';
import { ProviderUnavailable } from '../provider.js';
import { isRecord, problemText } from './mapping.js';

/** Connect, headers and body timeouts of every call. */
export const PIX_TIMEOUT_MS = 10_000;
/** A token is fetched again this long before the PSP says it expires. */
const TOKEN_MARGIN_MS = 60_000;

export interface PixResponse {
  status: number;
  body: unknown;
}

/** Where a transport failure happened: the token endpoint or the API (check() names PIX_OAUTH_URL or PIX_API_URL). */
export type PixStage = 'token' | 'api';

/** No answer from the PSP (timeout, network, TLS); `code` is the underlying error code, for check(). */
export class PixTransportError extends ProviderUnavailable {
  constructor(
    readonly stage: PixStage,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The token endpoint refused the client credentials. */
export class PixCredentialsRefused extends Error {
  constructor(readonly status: number) {
    super(`the PSP's token endpoint refused the client credentials (${status}): check PIX_CLIENT_ID and PIX_CLIENT_SECRET`);
    this.name = 'PixCredentialsRefused';
  }
}

function readPem(file: string, variable: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(variable, `cannot read ${file} (${code})`);
  }
}

/** The error code of an undici/node failure, looking through `cause`. */
function errorCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && isRecord(current); depth++) {
    if (typeof current.code === 'string' && current.code !== 'UND_ERR_SOCKET') return current.code;
    if (current.cause === undefined && typeof current.code === 'string') return current.code;
    current = current.cause;
  }
  return 'UNKNOWN';
}

export interface PixHttpOptions {
  /** Connect, headers and body timeout of each call; PIX_TIMEOUT_MS unless a test wants a shorter one. */
  timeoutMs?: number;
}

export class PixHttpClient {
  private readonly agent: Agent;
  private readonly timeoutMs: number;
  private token: { value: string; until: number } | undefined;
  /** A token request under way, shared by the calls that need one meanwhile (one request, not one per call). */
  private pendingToken: Promise<string> | undefined;
  /** The client secret and the last tokens: never let into a message. */
  private readonly secrets: string[];

  constructor(
    private readonly config: BcbPixConfig,
    private readonly clock: Clock,
    extraCa?: string,
    options: PixHttpOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? PIX_TIMEOUT_MS;
    const cert = readPem(config.certFile, 'PIX_CERT_FILE');
    const key = readPem(config.keyFile, 'PIX_KEY_FILE');
    const extra = [config.caFile ? readPem(config.caFile, 'PIX_CA_FILE') : undefined, extraCa].filter((pem): pem is string => pem !== undefined);
    // `ca` replaces Node's roots: keep them, so a PSP with a public certificate is still trusted.
    const ca = extra.length > 0 ? [...tls.rootCertificates, ...extra] : undefined;
    // One TLS context for every connection: given cert, key and ca instead, each new connection would
    // parse them again (with the roots listed, 40-50 ms of the event loop on a 2-core Xeon).
    let secureContext: tls.SecureContext;
    try {
      // An unusable CA is ignored, not thrown: a failure here is the client certificate's.
      secureContext = tls.createSecureContext({ cert, key, ca });
    } catch (error) {
      const reason = error instanceof Error ? error.message : 'invalid';
      throw new ConfigError('PIX_CERT_FILE', `the certificate in PIX_CERT_FILE and the key in PIX_KEY_FILE do not make a client certificate (${reason})`);
    }
    this.agent = new Agent({ connect: { secureContext, timeout: this.timeoutMs }, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs });
    this.secrets = [config.clientSecret];
  }

  /** Removes the client secret and any token from a text before it reaches a message. */
  scrub(text: string): string {
    let out = text;
    for (const secret of this.secrets) {
      if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
    }
    return out;
  }

  private async send(stage: PixStage, url: string, method: 'GET' | 'PUT' | 'PATCH' | 'POST', headers: Record<string, string>, body?: string): Promise<PixResponse> {
    let res;
    try {
      res = await request(url, { method, headers, body, dispatcher: this.agent, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs });
    } catch (error) {
      const code = errorCode(error);
      throw new PixTransportError(stage, code, `the PSP did not answer ${method} ${new URL(url).pathname} (${code})`);
    }
    let text: string;
    try {
      text = await res.body.text();
    } catch (error) {
      const code = errorCode(error);
      throw new PixTransportError(stage, code, `the PSP's answer to ${method} ${new URL(url).pathname} was cut (${code})`);
    }
    let parsed: unknown = undefined;
    if (text.length > 0) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    if (res.statusCode >= 500) {
      throw new ProviderUnavailable(this.scrub(`the PSP failed ${method} ${new URL(url).pathname}: ${problemText(res.statusCode, parsed)}`));
    }
    return { status: res.statusCode, body: parsed };
  }

  /** The cached token, or a new one (client credentials, HTTP Basic, over the same mTLS agent). */
  async accessToken(fresh = false): Promise<string> {
    if (!fresh && this.token && this.clock.now().getTime() < this.token.until) return this.token.value;
    this.pendingToken ??= this.fetchToken().finally(() => {
      this.pendingToken = undefined;
    });
    return this.pendingToken;
  }

  private async fetchToken(): Promise<string> {
    const now = this.clock.now().getTime();
    const basic = Buffer.from(`${this.config.clientId}:${this.config.clientSecret}`).toString('base64');
    const res = await this.send('token', this.config.oauthUrl, 'POST', { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, 'grant_type=client_credentials');
    if (res.status === 400 || res.status === 401 || res.status === 403) throw new PixCredentialsRefused(res.status);
    const body = res.body;
    if (res.status !== 200 || !isRecord(body) || typeof body.access_token !== 'string' || body.access_token.length === 0) {
      throw new Error(`the PSP's token endpoint answered ${res.status} without a token`);
    }
    // Some PSPs send expires_in as a string of digits.
    const expiresIn = Number(body.expires_in);
    const seconds = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 300;
    this.token = { value: body.access_token, until: now + Math.max(0, seconds * 1000 - TOKEN_MARGIN_MS) };
    // Keep the secret and the last few tokens (an old one may still be echoed in an answer).
    this.secrets.push(body.access_token);
    if (this.secrets.length > 6) this.secrets.splice(1, 1);
    return this.token.value;
  }

  /** One API call (`path` relative to apiUrl); a 401 fetches a new token once and retries once. */
  async call(method: 'GET' | 'PUT' | 'PATCH', path: string, body?: unknown): Promise<PixResponse> {
    const url = `${this.config.apiUrl.replace(/\/+$/, '')}${path}`;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const attempt = async (fresh: boolean) => {
      const token = await this.accessToken(fresh);
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
      if (payload !== undefined) headers['content-type'] = 'application/json';
      return this.send('api', url, method, headers, payload);
    };
    const first = await attempt(false);
    if (first.status !== 401) return first;
    return attempt(true);
  }

  /** A plain Error for an answer the caller does not handle: the PSP's title and detail, scrubbed. */
  refusal(method: string, path: string, res: PixResponse): Error {
    return new Error(this.scrub(`the PSP refused ${method} ${path}: ${problemText(res.status, res.body)}`));
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
