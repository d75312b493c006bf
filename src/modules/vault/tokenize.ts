/**
 * POST /tokenize: a buyer's browser (the hosted fields page) sends the card
 * encrypted to the vault's public key, with the ticket of a card intent. The
 * vault checks the attempt limits, the ticket, the key, decrypts, validates
 * the card, and stores it sealed (number and expiry in one record, the CVV in
 * another so it can be erased), answering a single-use `vtk_` token.
 *
 * Card-testing defence: at most MAX_ATTEMPTS_PER_TICKET attempts per ticket,
 * and a per-client-IP limit per minute, counted in the database so every
 * vault process shares them, and counted before any work is done.
 */
import { createHash, randomBytes } from 'node:crypto';
import { compactDecrypt, decodeProtectedHeader } from 'jose';
import type { Db } from '../../db/database.js';
import { DomainError, validationError, type Outcome } from '../../lib/domain-error.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { validateCard } from './card.js';
import type { VaultKeys } from './keys.js';
import type { VaultSealers } from './master-key.js';
import * as repo from './repo.js';
import { verifyTicket } from './tickets.js';

export const MAX_ATTEMPTS_PER_TICKET = 5;
const IP_WINDOW_MS = 60_000;

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

export interface TokenizeDeps {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  keys: VaultKeys;
  sealers: VaultSealers;
  internalKey: Buffer;
  attemptsPerIpPerMinute: number;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function rateLimited(message: string, retryAfterSeconds: number): DomainError {
  return new DomainError('RATE_LIMITED', message, undefined, Math.max(1, retryAfterSeconds));
}

export class Tokenizer {
  constructor(private readonly deps: TokenizeDeps) {}

  async tokenize(input: TokenizeInput, clientIp: string): Promise<Outcome<TokenResult>> {
    const { db, clock, keys, sealers, newId } = this.deps;
    const now = clock.now();
    const windowStart = new Date(Math.floor(now.getTime() / IP_WINDOW_MS) * IP_WINDOW_MS);
    if ((await repo.countAttempt(db, 'ip', clientIp, windowStart)) > this.deps.attemptsPerIpPerMinute) {
      return rateLimited('Too many card attempts from this address; wait a minute', Math.ceil((windowStart.getTime() + IP_WINDOW_MS - now.getTime()) / 1000));
    }
    const ticket = await verifyTicket(this.deps.internalKey, input.ticket, now);
    if (!ticket.ok) {
      if (ticket.reason === 'expired') return new DomainError('TICKET_EXPIRED', 'The ticket expired with its payment intent; create a new intent');
      return validationError('ticket', 'is not a valid ticket');
    }
    const { intentId, companyId, expiresAt } = ticket.claims;
    // The per-ticket counter lives as long as the ticket (its window starts at the ticket's expiry).
    if ((await repo.countAttempt(db, 'ticket', intentId, expiresAt)) > MAX_ATTEMPTS_PER_TICKET) {
      return rateLimited(`At most ${MAX_ATTEMPTS_PER_TICKET} card attempts per payment intent`, Math.ceil((expiresAt.getTime() - now.getTime()) / 1000));
    }
    const privateKey = await keys.privateKey(input.keyId);
    if (!privateKey) return validationError('keyId', 'is not a current vault key; fetch /keys again');
    let plaintext: string;
    try {
      // A kid that disagrees with keyId is refused like any undecryptable card (same answer, nothing learned).
      if (decodeProtectedHeader(input.encryptedCard).kid !== input.keyId) throw new Error('kid mismatch');
      const { plaintext: bytes } = await compactDecrypt(input.encryptedCard, privateKey, {
        keyManagementAlgorithms: ['RSA-OAEP-256'],
        contentEncryptionAlgorithms: ['A256GCM'],
      });
      plaintext = new TextDecoder().decode(bytes);
    } catch {
      return validationError('encryptedCard', 'could not be decrypted with this key');
    }
    let payload: unknown;
    try {
      payload = JSON.parse(plaintext);
    } catch {
      return validationError('encryptedCard', 'does not hold a JSON card');
    }
    const checked = validateCard(payload, now);
    if (!checked.ok) {
      return new DomainError('VALIDATION_ERROR', `Invalid card: ${checked.problems.map((p) => p.field).join(', ')}`, checked.problems);
    }
    const { card } = checked;
    const token = `vtk_${randomBytes(32).toString('base64url')}`;
    await repo.insertToken(db, {
      id: newId('tok'),
      token_hash: hashToken(token),
      intent_id: intentId,
      company_id: companyId,
      brand: card.brand,
      last4: card.last4,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      card_sealed: sealers.cards.seal(JSON.stringify({ number: card.number, holderName: card.holderName, expMonth: card.expMonth, expYear: card.expYear })),
      cvv_sealed: sealers.cards.seal(card.cvv),
      expires_at: expiresAt,
      used_at: null,
      created_at: now,
    });
    return { token, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear };
  }
}

/** Erases the CVV of tokens whose intent expired and drops old attempt counters (needs no key). */
export async function sweepVault(db: Db, now: Date): Promise<number> {
  const erased = await repo.eraseExpiredCvvs(db, now);
  await repo.deleteAttemptsBefore(db, new Date(now.getTime() - 86_400_000));
  return erased;
}
