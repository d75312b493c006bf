/**
 * The sender of webhook requests: what the delivery worker (delivery.ts) asks
 * of one, and the real one over undici and the guarded dispatcher (the URL
 * guard runs again at connect time; redirects are not followed; a 10 s
 * timeout). A receiver's Retry-After is handed back as sent, for the retry
 * rules to read (rules.retryAfterMs).
 */
import { request, type Dispatcher } from 'undici';
import { assertPublicTarget, createGuardedDispatcher } from './url-guard.js';

/** A receiver is given up on after this long (the contract's 10 s). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** An attempt's error is kept to this many characters. */
export const MAX_ERROR_LENGTH = 200;

/** A receiver's answer (with its Retry-After header, as sent, when it gave one), or why none came. */
export type SendResult = { statusCode: number; retryAfter?: string } | { error: string };

export interface Sender {
  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
}

export interface HttpSenderOptions {
  allowLoopback: boolean;
  /** Gives up on a receiver after this long; DELIVERY_TIMEOUT_MS unless given. */
  timeoutMs?: number;
  dispatcher?: Dispatcher;
}

/** The real sender: undici over the guarded dispatcher; the response body is read and discarded. */
export function httpSender(opts: HttpSenderOptions): Sender {
  const timeoutMs = opts.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const dispatcher = opts.dispatcher ?? createGuardedDispatcher({ allowLoopback: opts.allowLoopback, timeoutMs });
  return {
    async send(url, headers, body) {
      try {
        assertPublicTarget(new URL(url), { allowLoopback: opts.allowLoopback });
        const response = await request(url, { method: 'POST', headers, body, dispatcher, signal: AbortSignal.timeout(timeoutMs) });
        await response.body.dump();
        const retryAfter = response.headers['retry-after'];
        const first = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
        return first === undefined ? { statusCode: response.statusCode } : { statusCode: response.statusCode, retryAfter: first };
      } catch (err) {
        const e = err as Error & { code?: string };
        const reason = e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT'
          ? `timeout after ${timeoutMs} ms`
          : `${e.code ?? e.name}: ${e.message}`;
        return { error: reason.slice(0, MAX_ERROR_LENGTH) };
      }
    },
  };
}
