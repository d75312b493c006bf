/**
 * HTTP to Cielo's E-commerce API 3.0: the transactional base (sales, voids)
 * and the query base (lookups), both authenticated with the MerchantId and
 * MerchantKey headers, every call tagged with a fresh RequestId.
 *
 * Errors are sorted by what the caller can conclude:
 * - no answer (timeout, network, 5xx): ProviderUnavailable, the outcome is
 *   unknown and must be looked up, never retried blindly;
 * - 4xx: CieloError, Cielo refused the request itself (its Code/Message list).
 * No message ever carries the MerchantKey or the request body (card data).
 */
import { randomUUID } from 'node:crypto';
import tls from 'node:tls';
import { Agent, request, type Dispatcher } from 'undici';
import type { CieloConfig } from '../../../config.js';
import { ProviderUnavailable } from '../provider.js';

/** The vault gives an authorization 10 s; the card call must end before it. */
export const AUTHORIZE_TIMEOUT_MS = 8_000;
export const CALL_TIMEOUT_MS = 10_000;

/** Cielo refused a request (4xx): the request was wrong, nothing was charged by it. */
export class CieloError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'CieloError';
  }
}

export interface CieloAnswer {
  statusCode: number;
  /** The JSON body, undefined when empty or not JSON. */
  body: unknown;
}

export interface CieloCall {
  base: 'api' | 'query';
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: unknown;
  timeoutMs?: number;
  /** Statuses answered to the caller instead of thrown (404 on lookups); 'any': every HTTP answer (reachability). */
  accept?: readonly number[] | 'any';
}

/** Cielo's error body: a list of `{ Code, Message }`. */
function describeErrors(body: unknown): string {
  const list = Array.isArray(body) ? body : body && typeof body === 'object' ? [body] : [];
  const parts = list
    .filter((e): e is Record<string, unknown> => !!e && typeof e === 'object')
    .map((e) => `${String(e.Code ?? '?')} ${String(e.Message ?? '')}`.trim());
  return parts.length ? parts.join('; ') : 'no error details';
}

export class CieloClient {
  private readonly dispatcher: Dispatcher | undefined;

  constructor(
    private readonly config: CieloConfig,
    extraCa?: string,
  ) {
    // An extra CA is added to Node's own list, not put in its place: the real Cielo keeps working. One TLS
    // context for every connection: listing the roots per connection would parse them each time (tens of ms).
    this.dispatcher = extraCa ? new Agent({ connect: { secureContext: tls.createSecureContext({ ca: [...tls.rootCertificates, extraCa] }) } }) : undefined;
  }

  async call(call: CieloCall): Promise<CieloAnswer> {
    const base = call.base === 'api' ? this.config.apiUrl : this.config.queryUrl;
    const where = `${call.method} ${call.base === 'api' ? 'CIELO_API_URL' : 'CIELO_QUERY_URL'}${call.path.split('?')[0]}`;
    let response: Dispatcher.ResponseData;
    let text: string;
    try {
      response = await request(base + call.path, {
        method: call.method,
        dispatcher: this.dispatcher,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          MerchantId: this.config.merchantId,
          MerchantKey: this.config.merchantKey,
          RequestId: randomUUID(),
        },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: AbortSignal.timeout(call.timeoutMs ?? CALL_TIMEOUT_MS),
      });
      text = await response.body.text();
    } catch (err) {
      // Only the error's kind: undici's messages may quote the request.
      const kind = (err as Error).name === 'TimeoutError' ? 'timed out' : `failed (${(err as { code?: string }).code ?? (err as Error).name})`;
      throw new ProviderUnavailable(`Cielo did not answer: ${where} ${kind}`);
    }
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const status = response.statusCode;
    if (call.accept === 'any' || call.accept?.includes(status) || (status >= 200 && status < 300)) return { statusCode: status, body };
    if (status >= 500) throw new ProviderUnavailable(`Cielo answered ${status} to ${where}`);
    throw new CieloError(status, `Cielo refused ${where} with ${status}: ${this.scrub(describeErrors(body))}`);
  }

  /** Cielo's messages should not echo our key or a card number, but if one did it must not reach a log. */
  private scrub(message: string): string {
    const keyless = this.config.merchantKey ? message.split(this.config.merchantKey).join('[MerchantKey]') : message;
    return keyless.replace(/\d{12,19}/g, '[digits]');
  }

  async close(): Promise<void> {
    await this.dispatcher?.close();
  }
}
