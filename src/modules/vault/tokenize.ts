/**
 * POST /tokenize: a buyer's browser (the hosted fields page) sends the card
 * encrypted to the vault's public key, with the ticket of a card intent. The
 * vault checks the attempt limits, the ticket, that the intent is not closed
 * (closed-intents.ts: the vault's own record, never the API's tables), the
 * key, decrypts (the JWE must name the same ticket in its protected header),
 * validates the card, checks the card's velocity, and
 * stores it sealed (number and expiry in one record, the CVV in another) with
 * the card's keyed fingerprint and the JWE's digest (each JWE is accepted
 * once), answering a single-use `vtk_` token. The card and CVV are kept only
 * until the token is spent or its intent is over (authorize.ts, sweep.ts).
 *
 * Card-testing defence, counted in the database so every vault process shares
 * it, and counted before the work it guards (the ticket's HMAC is checked
 * before the attempt counters, as it costs less than a query, so that both
 * counters are one statement):
 * - at most MAX_ATTEMPTS_PER_TICKET attempts per ticket;
 * - a per-client-IP limit per minute, generous because many real buyers share
 *   one address behind carrier-grade NAT (most Brazilian mobile traffic);
 * - a per-card limit of distinct intents per hour (by the card's keyed
 *   fingerprint), which is what stops one card being tried across intents.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { DomainError, isDomainError, shownDetails, validationError, type Outcome } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import type { Text } from '../../lib/i18n/text.js';
import type { Clock } from '../../lib/clock.js';
import { pooledRandomBytes } from '../../lib/pooled-random.js';
import type { IdGenerator } from '../../lib/ids.js';
import { validateCard, type ValidCard } from './card.js';
import type { CardFingerprinter } from './card-fingerprint.js';
import { openCard } from './card-jwe.js';
import type { VaultKeys } from './keys.js';
import type { VaultSealers } from './master-key.js';
import * as repo from './repo.js';
import { verifyTicket, type TicketClaims } from './tickets.js';

export const MAX_ATTEMPTS_PER_TICKET = 5;
const IP_WINDOW_MS = 60_000;
const CARD_WINDOW_MS = 3_600_000;

export interface TokenizeInput {
  ticket: string;
  keyId: string;
  encryptedCard: string;
}

export interface TokenResult {
  token: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface TokenizeLimits {
  attemptsPerIpPerMinute: number;
  /** Distinct intents one card may be tokenized for per hour. */
  intentsPerCardPerHour: number;
}

export interface TokenizeDeps extends TokenizeLimits {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  keys: VaultKeys;
  sealers: VaultSealers;
  fingerprint: CardFingerprinter;
  internalKey: Buffer;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function rateLimited(message: Text, retryAfterSeconds: number): DomainError {
  return new DomainError('RATE_LIMITED', message, undefined, Math.max(1, retryAfterSeconds));
}

/** The start of the fixed window of `ms` holding `now`, and the seconds left in it. */
function windowOf(now: Date, ms: number): { start: Date; secondsLeft: number } {
  const start = Math.floor(now.getTime() / ms) * ms;
  return { start: new Date(start), secondsLeft: Math.ceil((start + ms - now.getTime()) / 1000) };
}

export class Tokenizer {
  constructor(private readonly deps: TokenizeDeps) {}

  async tokenize(input: TokenizeInput, clientIp: string): Promise<Outcome<TokenResult>> {
    const { db, clock, keys } = this.deps;
    const now = clock.now();
    const ipWindow = windowOf(now, IP_WINDOW_MS);
    // The ticket's HMAC is checked first (cheap CPU, no query), so both attempt counters are one statement;
    // the answers keep their order: the address's limit, then the ticket's validity, then the ticket's limit.
    const ticket = verifyTicket(this.deps.internalKey, input.ticket, now);
    const ticketClaims = ticket.ok ? ticket.claims : undefined;
    const attempts = await repo.countAttempts(
      db,
      { key: clientIp, windowStart: ipWindow.start, limit: this.deps.attemptsPerIpPerMinute },
      // The per-ticket counter lives as long as the ticket (its window starts at the ticket's expiry);
      // whether the ticket's intent is closed is read in the same statement (closed-intents.ts).
      ticketClaims && { key: ticketClaims.intentId, windowStart: ticketClaims.expiresAt, intentId: ticketClaims.intentId },
    );
    if (attempts.ip > this.deps.attemptsPerIpPerMinute) {
      return rateLimited(ERRORS.RATE_LIMITED.cardAttemptsFromAddress, ipWindow.secondsLeft);
    }
    if (!ticket.ok) {
      if (ticket.reason === 'expired') return new DomainError('TICKET_EXPIRED', ERRORS.TICKET_EXPIRED.withIntent);
      return validationError('ticket', PROBLEMS.ticket);
    }
    const { expiresAt } = ticket.claims;
    if ((attempts.ticket ?? 0) > MAX_ATTEMPTS_PER_TICKET) {
      return rateLimited(ERRORS.RATE_LIMITED.cardAttemptsPerIntent({ max: MAX_ATTEMPTS_PER_TICKET }), Math.ceil((expiresAt.getTime() - now.getTime()) / 1000));
    }
    // A valid ticket means its intent has not expired (the ticket expires with it); the vault's own
    // record says whether it is over: a token spent for it, or the API's notice (closed-intents.ts).
    if (attempts.intentClosed) return new DomainError('INTENT_ALREADY_PROCESSED', ERRORS.INTENT_ALREADY_PROCESSED.noLongerTakesCard);
    const privateKey = await keys.privateKey(input.keyId);
    if (!privateKey) return validationError('keyId', PROBLEMS.staleKey);
    const opened = openCard(input.encryptedCard, privateKey, input.keyId, input.ticket);
    if (isDomainError(opened)) return opened;
    let payload: unknown;
    try {
      payload = JSON.parse(opened.plaintext);
    } catch {
      return validationError('encryptedCard', PROBLEMS.notJsonCard);
    }
    const checked = validateCard(payload, now);
    if (!checked.ok) {
      const shown = shownDetails(checked.problems);
      return new DomainError('VALIDATION_ERROR', ERRORS.VALIDATION_ERROR.invalidCard({ fields: shown.map((p) => p.field).join(', ') }), shown);
    }
    return this.store(checked.card, ticket.claims, opened.digest, now);
  }

  /**
   * Checks the card's velocity and stores the sealed card with the JWE's digest, in one statement (repo.storeCard):
   * a card over its limit is refused before the digest is recorded; a JWE already recorded is a replay, and nothing is stored.
   */
  private async store(card: ValidCard, claims: TicketClaims, jweDigest: string, now: Date): Promise<Outcome<TokenResult>> {
    const { sealers, newId } = this.deps;
    const token = `vtk_${pooledRandomBytes(32).toString('base64url')}`;
    const cardWindow = windowOf(now, CARD_WINDOW_MS);
    const answer = await repo.storeCard(
      this.deps.db,
      // The fingerprint is stored with the token too: it outlives the card (sweep.ts).
      { fingerprint: this.deps.fingerprint(card.number), windowStart: cardWindow.start, intentsPerCard: this.deps.intentsPerCardPerHour },
      { digest: jweDigest, expiresAt: claims.expiresAt },
      {
        id: newId('tok'),
        token_hash: hashToken(token),
        intent_id: claims.intentId,
        company_id: claims.companyId,
        brand: card.brand,
        last4: card.last4,
        exp_month: card.expMonth,
        exp_year: card.expYear,
        card_sealed: sealers.cards.seal(JSON.stringify({ number: card.number, holderName: card.holderName, expMonth: card.expMonth, expYear: card.expYear })),
        cvv_sealed: sealers.cards.seal(card.cvv),
        expires_at: claims.expiresAt,
        used_at: null,
        created_at: now,
      },
    );
    if (answer.intentsForCard > this.deps.intentsPerCardPerHour) {
      return rateLimited(ERRORS.RATE_LIMITED.cardOnTooManyPayments, cardWindow.secondsLeft);
    }
    if (!answer.stored) return validationError('encryptedCard', PROBLEMS.tokenized);
    return { token, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear };
  }
}
