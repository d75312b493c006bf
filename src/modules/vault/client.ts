/**
 * How the API asks the vault to authorize a card: an HTTP call to the vault's
 * internal route, authenticated with a bearer derived from INTERNAL_KEY. The
 * API never sees the card; it gets the acquirer's outcome (brand and last 4
 * digits at most). The request carries a deadline the vault honours (it
 * starts no authorization after it and reverses an approval answered after
 * it); the API waits a little longer than the deadline for the answer. A
 * vault that cannot be reached, answers 5xx or misses that wait is an
 * unknown outcome: the API records it as such and resolves it from the
 * acquirer's record (payment-intents/recovery.ts), never guessing.
 *
 * A refusal is rendered by the API for its own client, in that client's
 * language, so the vault answers the internal route's errors with their
 * texts in every language (ErrorInEveryLanguage) and the client rebuilds the
 * DomainError from them: the vault's answer does not depend on a language,
 * and the API never reads a text to translate it.
 *
 * The API also tells the vault which card intents are over
 * (closed-intents.ts), so that the vault, which never reads the API's
 * tables, refuses their tickets and erases their cards; a notice the vault
 * did not acknowledge is told again (payment-intents/vault-notices.ts).
 */
import { systemClock, type Clock } from '../../lib/clock.js';
import { request } from 'undici';
import { DomainError, type ErrorCode, type ErrorDetail } from '../../lib/domain-error.js';
import { VAULT_REFUSAL } from '../../lib/i18n/messages/errors.js';
import type { Text } from '../../lib/i18n/text.js';
import type { ChargeRecord } from '../providers/index.js';
import { internalBearer, type AuthorizeRequest, type VaultAuthorization } from './authorize.js';
import type { ClosedIntentNotice } from './closed-intents.js';

/** How the API reaches the vault; the vault's in-process client is one too (Vault.client: tests). */
export interface VaultClient {
  authorize(req: AuthorizeRequest): Promise<VaultAuthorization>;
  /** Tells the vault these card intents are over; rejects when the vault did not acknowledge them (told again later). */
  intentsClosed(notices: readonly ClosedIntentNotice[]): Promise<void>;
}

/** The wire answer of a definite "no charge stands" (200, so that it is never mistaken for an unknown outcome). */
export interface NotChargedBody {
  notCharged: true;
  reason: string;
}

/** How long the API waits for the vault to acknowledge closed intents (a cancel waits for it; the worker tells again later). */
const NOTICE_TIMEOUT_MS = 2_000;

/** How long past the deadline the API still waits for the vault's answer: the vault answers at once after it. */
export const AUTHORIZE_ANSWER_GRACE_MS = 3_000;

/** Error codes the vault answers when it refused before charging; any other answer leaves the outcome unknown. */
const REFUSALS: readonly ErrorCode[] = ['VALIDATION_ERROR', 'PAYMENT_METHOD_UNAVAILABLE'];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is Text => isRecord(value) && typeof value.en === 'string' && typeof value['pt-BR'] === 'string';
const isDetail = (value: unknown): value is ErrorDetail => isRecord(value) && typeof value.field === 'string' && isText(value.message);

/** The vault's refusal, from its body in every language; a body that is not one still refuses, with a generic message. */
function refusal(code: ErrorCode, body: { message?: unknown; details?: unknown }): DomainError {
  const { message, details = [] } = body;
  if (isText(message) && Array.isArray(details) && details.every(isDetail)) return new DomainError(code, message, details);
  return new DomainError(code, VAULT_REFUSAL);
}

/**
 * `clock` is the one the deadline was set on (payment-intents/charge.ts): the
 * time left is read on it, and then waited for as a network timeout.
 */
export function httpVaultClient(baseUrl: string, internalKey: Buffer, clock: Clock = systemClock): VaultClient {
  const bearer = `Bearer ${internalBearer(internalKey)}`;
  return {
    async authorize(req) {
      let response;
      try {
        response = await request(new URL('/internal/authorize', baseUrl), {
          method: 'POST',
          headers: { authorization: bearer, 'content-type': 'application/json' },
          body: JSON.stringify(req),
          signal: AbortSignal.timeout(Math.max(0, req.deadline - clock.now().getTime()) + AUTHORIZE_ANSWER_GRACE_MS),
        });
      } catch (err) {
        return { kind: 'unavailable', reason: `vault unreachable: ${(err as Error).message}` };
      }
      const body = (await response.body.json().catch(() => undefined)) as (ChargeRecord & { code?: ErrorCode; message?: unknown; details?: unknown } & Partial<NotChargedBody>) | undefined;
      if (response.statusCode === 200 && body?.notCharged === true) return { kind: 'not-charged', reason: body.reason ?? 'not charged' };
      if (response.statusCode === 200 && body) return { kind: 'charged', record: body };
      // The vault's wire answers for a refusal before any charge (src/vault-app.ts): the token (400) or cards switched off (422).
      if (body?.code && REFUSALS.includes(body.code)) return { kind: 'refused', error: refusal(body.code, body) };
      return { kind: 'unavailable', reason: `vault answered ${response.statusCode}` };
    },
    async intentsClosed(notices) {
      const response = await request(new URL('/internal/closed-intents', baseUrl), {
        method: 'POST',
        headers: { authorization: bearer, 'content-type': 'application/json' },
        body: JSON.stringify({ intents: notices }),
        signal: AbortSignal.timeout(NOTICE_TIMEOUT_MS),
      });
      await response.body.dump();
      if (response.statusCode !== 204) throw new Error(`the vault answered ${response.statusCode} to closed intents`);
    },
  };
}
