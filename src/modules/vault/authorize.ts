/**
 * Card authorization, inside the vault (the only code that reads a card).
 * The API asks with a token and the intent it confirms; the vault checks the
 * token is this intent's and unused, decrypts the card, calls the acquirer
 * keyed by the intent id, and erases the CVV.
 *
 * Never a second charge: the acquirer keeps one outcome per intent id, and an
 * outcome already recorded for the intent is returned as it is. A token is
 * single use: once spent it is refused for any intent, except to resume its
 * own intent's authorization when the acquirer has no outcome for it yet (the
 * process died between spending the token and the acquirer's answer).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { transact } from '../../db/transact.js';
import { isDomainError, validationError, type DomainError } from '../../lib/domain-error.js';
import type { Clock } from '../../lib/clock.js';
import { AcquirerUnavailable, type Acquirer, type ChargeRecord } from '../acquirer/index.js';
import type { VaultSealers } from './master-key.js';
import * as repo from './repo.js';
import { hashToken } from './tokenize.js';

export interface AuthorizeRequest {
  token: string;
  intentId: string;
  companyId: string;
  amountCents: number;
  installments: number;
}

/** The bearer the API presents on the vault's internal routes, derived from INTERNAL_KEY. */
export function internalBearer(internalKey: Buffer): string {
  return createHmac('sha256', internalKey).update('svc-vault-internal/v1').digest('hex');
}

export function isInternalBearer(internalKey: Buffer, header: string | undefined): boolean {
  const expected = Buffer.from(`Bearer ${internalBearer(internalKey)}`);
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The answer to an authorization, as the API needs to act on it:
 * - `charged`: the acquirer decided (approved or refused: both are outcomes);
 * - `token-refused`: the token is not usable for this intent, nothing was charged;
 * - `unavailable`: the acquirer (or the vault) did not answer; the outcome is unknown.
 */
export type VaultAuthorization =
  | { kind: 'charged'; record: ChargeRecord }
  | { kind: 'token-refused'; error: DomainError }
  | { kind: 'unavailable'; reason: string };

export class CardAuthorizer {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly sealers: VaultSealers,
    private readonly acquirer: Acquirer,
  ) {}

  /** Never throws an expected failure: a bad token or a silent acquirer is an answer (see VaultAuthorization). */
  async authorize(req: AuthorizeRequest): Promise<VaultAuthorization> {
    const earlier = await this.acquirer.findCharge(req.intentId);
    if (earlier) return { kind: 'charged', record: earlier };
    const now = this.clock.now();
    const row = await transact(this.db, async (trx) => {
      const token = await repo.lockToken(trx, hashToken(req.token));
      if (!token || token.intent_id !== req.intentId || token.company_id !== req.companyId) {
        return validationError('token', 'is not a card token of this payment intent');
      }
      if (token.expires_at.getTime() <= now.getTime()) return validationError('token', 'expired with its payment intent');
      // Spent and still holding its CVV: the authorization of this same intent was interrupted; resume it.
      if (token.used_at && !token.cvv_sealed) return validationError('token', 'was already used; tokenize the card again');
      if (!token.used_at) await repo.markTokenUsed(trx, token.id, now);
      return token;
    });
    if (isDomainError(row)) return { kind: 'token-refused', error: row };
    const card = JSON.parse(this.sealers.cards.open(row.card_sealed)) as { number: string; holderName: string; expMonth: number; expYear: number };
    try {
      const record = await this.acquirer.authorizeCard({
        reference: req.intentId,
        amountCents: req.amountCents,
        installments: req.installments,
        card: { ...card, cvv: this.sealers.cards.open(row.cvv_sealed!), brand: row.brand, last4: row.last4 },
      });
      return { kind: 'charged', record };
    } catch (err) {
      // The acquirer's message only: never the card, which is not in it.
      if (err instanceof AcquirerUnavailable) return { kind: 'unavailable', reason: err.message };
      throw err;
    } finally {
      await repo.eraseCvv(this.db, row.id);
    }
  }
}
