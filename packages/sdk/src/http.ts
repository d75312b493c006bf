/**
 * One API call: URL, headers, the Idempotency-Key of a POST, retries with
 * backoff, and the answer turned into a value or an SvcApiError.
 */
import { SvcApiError, SvcConnectionError } from './errors.js';

export interface SvcOptions {
  /** svc_test_… (sandbox) or svc_live_… (production). */
  apiKey: string;
  /** The API's address, without a trailing path; default http://localhost:3000. */
  baseUrl?: string;
  /** Retries after the first attempt of a call (see `retries` in the README); default 2. */
  maxRetries?: number;
  /** The first retry's delay before jitter, doubled at each retry; default 500 ms. */
  retryBaseDelayMs?: number;
  /** The longest wait between two attempts; a longer Retry-After ends the retries; default 30 s. */
  maxRetryDelayMs?: number;
  /** One attempt's deadline; default 60 s. */
  timeoutMs?: number;
  /** Sent as Accept-Language (pt-BR for Portuguese messages). */
  acceptLanguage?: string;
  /** Another fetch (a test double, a fetch with a proxy); default globalThis.fetch. */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  /** The Idempotency-Key of this POST; default a new random one per call, kept across its retries. */
  idempotencyKey?: string;
  /** Aborts the call, retries included. */
  signal?: AbortSignal;
  /** Overrides the client's maxRetries for this call. */
  maxRetries?: number;
}

type Query = Record<string, string | number | boolean | undefined>;

export interface Call {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Query | undefined;
  /** The JSON body; undefined sends none. */
  body?: unknown;
}

/**
 * Answers worth another attempt: the key is busy with the same request, the
 * rate limit, and the two statuses of a provider or service that did not
 * answer. A retried POST carries the same Idempotency-Key, so nothing runs
 * twice; every other 4xx would fail the same way again.
 */
function retryable(err: SvcApiError): boolean {
  return (err.status === 409 && err.code === 'IDEMPOTENCY_KEY_IN_USE') || err.status === 429 || err.status === 502 || err.status === 503;
}

export class HttpClient {
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: SvcOptions) {
    if (!options.apiKey) throw new TypeError('apiKey is required');
    this.baseUrl = (options.baseUrl ?? 'http://localhost:3000').replace(/\/+$/, '');
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  async request<T>(call: Call, opts: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.apiKey}`, accept: 'application/json' };
    if (this.options.acceptLanguage) headers['accept-language'] = this.options.acceptLanguage;
    if (call.method === 'POST') headers['idempotency-key'] = opts.idempotencyKey ?? crypto.randomUUID();
    let body: string | undefined;
    if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      headers['content-type'] = 'application/json';
    }
    const url = this.url(call);
    const maxRetries = opts.maxRetries ?? this.options.maxRetries ?? 2;

    for (let attempt = 0; ; attempt++) {
      let res: Response;
      let text: string;
      try {
        res = await this.fetch(url, { method: call.method, headers, body, signal: this.attemptSignal(opts.signal) });
        text = await res.text();
      } catch (err) {
        // The caller's abort ends the call; a failed connection, a body cut short or an attempt past its deadline is retried.
        if (opts.signal?.aborted) throw opts.signal.reason;
        if (attempt >= maxRetries) throw new SvcConnectionError(`${call.method} ${call.path}: no answer (${describe(err)})`, { cause: err });
        await this.pause(this.backoffMs(attempt), opts.signal);
        continue;
      }
      if (res.ok) return (text === '' ? undefined : JSON.parse(text)) as T;
      const error = SvcApiError.fromResponse(res.status, res.headers, text);
      if (!retryable(error) || attempt >= maxRetries) throw error;
      const delay = this.retryDelayMs(attempt, error);
      if (delay === undefined) throw error;
      await this.pause(delay, opts.signal);
    }
  }

  private url(call: Call): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(call.query ?? {})) if (value !== undefined) params.set(name, String(value));
    const qs = params.toString();
    return `${this.baseUrl}${call.path}${qs ? `?${qs}` : ''}`;
  }

  private attemptSignal(caller: AbortSignal | undefined): AbortSignal {
    const deadline = AbortSignal.timeout(this.options.timeoutMs ?? 60_000);
    return caller ? AbortSignal.any([caller, deadline]) : deadline;
  }

  /** Exponential backoff with jitter: between half and all of base × 2^attempt, capped. */
  private backoffMs(attempt: number): number {
    const ceiling = Math.min(this.options.maxRetryDelayMs ?? 30_000, (this.options.retryBaseDelayMs ?? 500) * 2 ** attempt);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  /** Retry-After when the answer has one (undefined if it asks for longer than maxRetryDelayMs), else the backoff. */
  private retryDelayMs(attempt: number, error: SvcApiError): number | undefined {
    if (error.retryAfterSeconds === undefined) return this.backoffMs(attempt);
    const asked = error.retryAfterSeconds * 1000;
    return asked <= (this.options.maxRetryDelayMs ?? 30_000) ? asked : undefined;
  }

  private pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

function describe(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return err instanceof Error ? `${err.message}${cause}` : String(err);
}
