/**
 * Card authorization, inside the vault (the only code that reads a card).
 * The API asks with a token, the intent it confirms and its deadline; the
 * vault checks the token is this intent's and unused, spends it and erases
 * its card and CVV (and those of the intent's other tokens) in one commit,
 * which also notes the intent closed (closed-intents.ts),
 * the card then living only in this call's memory, and calls the acquirer
 * keyed by the intent id. Nothing needs the card after that commit: a second
 * call finds the token spent (an interrupted authorization, below), and the
 * outcome is found, resolved and reversed by the intent id alone
 * (findCharge, reverse: the acquirer's record, Cielo's merchant-order query).
 *
 * The deadline (issue 9, defect 2): after it the API no longer waits and
 * records the intent FAILED, so the vault never STARTS an authorization after
 * it (answers `not-charged`, and erases the intent's cards: that outcome is
 * final), and an approval that comes back after it is
 * reversed at the acquirer (desfazimento) before answering `not-charged`:
 * either way FAILED is true. A vault killed in between leaves an approval
 * that the API's worker finds and reverses (payment-intents/recovery.ts).
 *
 * Never a second charge: the acquirer keeps one outcome per intent id, and an
 * outcome already recorded for the intent is returned as it is. A token is
 * single use; a spent token of this same intent with no acquirer record means
 * an earlier call died after spending it: the outcome is unknown (the
 * authorization may be in flight), never "refused", so the API records it as
 * unknown and resolves it from the acquirer's record.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { transact } from '../../db/transact.js';
import { isDomainError, validationError, type DomainError } from '../../lib/domain-error.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import type { Clock } from '../../lib/clock.js';
import { methodUnavailable, ProviderUnavailable, type CardAcquirer, type ChargeRecord } from '../providers/index.js';
import type { VaultSealers } from './master-key.js';
import * as repo from './repo.js';
import { hashToken } from './tokenize.js';

export interface AuthorizeRequest {
  token: string;
  intentId: string;
  companyId: string;
  amountCents: number;
  installments: number;
  /** Epoch milliseconds after which no authorization may start (the API gives up soon after). */
  deadline: number;
}

const NOT_STARTED = 'the deadline passed before the authorization started';

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
 * - `refused`: refused before any charge (a token not usable for this intent,
 *   cards switched off): nothing was charged, the error is the answer;
 * - `not-charged`: definitely no charge stands (not attempted before the deadline, or reversed after it);
 * - `unavailable`: the acquirer (or the vault) did not answer; the outcome is unknown.
 */
export type VaultAuthorization =
  | { kind: 'charged'; record: ChargeRecord }
  | { kind: 'refused'; error: DomainError }
  | { kind: 'not-charged'; reason: string }
  | { kind: 'unavailable'; reason: string };

export class CardAuthorizer {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly sealers: VaultSealers,
    /** The card provider; absent when cards are switched off (CARD_PROVIDER=disabled). */
    private readonly provider: CardAcquirer | undefined,
  ) {}

  private get acquirer(): CardAcquirer {
    if (!this.provider) throw new Error('cards are switched off');
    return this.provider;
  }

  /** Never throws an expected failure: a bad token, a passed deadline or a silent acquirer is an answer (see VaultAuthorization). */
  async authorize(req: AuthorizeRequest): Promise<VaultAuthorization> {
    if (!this.provider) return { kind: 'refused', error: methodUnavailable('CREDIT_CARD') };
    const earlier = await this.acquirer.findCharge(req.intentId);
    if (earlier) return { kind: 'charged', record: earlier };
    if (this.pastDeadline(req)) return this.notStarted(req.intentId);
    const now = this.clock.now();
    const spent = await transact(this.db, async (trx) => {
      const token = await repo.lockToken(trx, hashToken(req.token));
      if (!token || token.intent_id !== req.intentId || token.company_id !== req.companyId) {
        return validationError('token', PROBLEMS.otherIntentToken);
      }
      if (token.expires_at.getTime() <= now.getTime()) return validationError('token', PROBLEMS.tokenExpired);
      if (token.used_at || !token.card_sealed || !token.cvv_sealed) return 'interrupted' as const;
      // Spent, card and CVV erased in one commit: from here the card exists only in this call's memory.
      await repo.spendToken(trx, token, now);
      return { token, card: token.card_sealed, cvv: token.cvv_sealed };
    });
    if (isDomainError(spent)) return { kind: 'refused', error: spent };
    if (spent === 'interrupted') return { kind: 'unavailable', reason: 'an earlier authorization of this intent was interrupted; its outcome is unknown' };
    // The vault may have been paused between the check above and here: check again right before the call.
    if (this.pastDeadline(req)) return { kind: 'not-charged', reason: NOT_STARTED };
    const { token, cvv } = spent;
    const card = JSON.parse(this.sealers.cards.open(spent.card)) as { number: string; holderName: string; expMonth: number; expYear: number };
    let record: ChargeRecord;
    try {
      record = await this.acquirer.authorizeCard({
        reference: req.intentId,
        amountCents: req.amountCents,
        installments: req.installments,
        card: { ...card, cvv: this.sealers.cards.open(cvv), brand: token.brand, last4: token.last4 },
      });
    } catch (err) {
      // The acquirer's message only: never the card, which is not in it.
      if (!(err instanceof ProviderUnavailable)) throw err;
      const found = await this.lookUpSilentOutcome(req);
      if (!found) return { kind: 'unavailable', reason: err.message };
      record = found;
    }
    if (!record.approved || !this.pastDeadline(req)) return { kind: 'charged', record };
    return this.reverseLateApproval(req.intentId);
  }

  /**
   * The acquirer did not answer the authorization (a timeout, a dropped
   * connection): its record is read at once, by our reference (Cielo: the
   * merchant-order query), while the deadline allows. A sale it recorded is
   * the outcome (one charge, never a second authorization); none, or no
   * answer, leaves the outcome unknown for the API to resolve.
   */
  private async lookUpSilentOutcome(req: AuthorizeRequest): Promise<ChargeRecord | undefined> {
    if (this.pastDeadline(req)) return undefined;
    try {
      return await this.acquirer.findCharge(req.intentId);
    } catch (err) {
      if (err instanceof ProviderUnavailable) return undefined;
      throw err;
    }
  }

  /** An approval answered after the deadline: the API has recorded (or will record) FAILED, so it must not stand. */
  private async reverseLateApproval(intentId: string): Promise<VaultAuthorization> {
    try {
      await this.acquirer.reverse(intentId);
      return { kind: 'not-charged', reason: 'approved after the deadline and reversed' };
    } catch (err) {
      if (err instanceof ProviderUnavailable) return { kind: 'unavailable', reason: `a late approval could not be reversed yet: ${err.message}` };
      throw err;
    }
  }

  /** No authorization started before the deadline: the intent fails with nothing charged, so none of its tokens will ever be spent. */
  private async notStarted(intentId: string): Promise<VaultAuthorization> {
    await repo.eraseCardsOfIntent(this.db, intentId);
    return { kind: 'not-charged', reason: NOT_STARTED };
  }

  private pastDeadline(req: AuthorizeRequest): boolean {
    return this.clock.now().getTime() >= req.deadline;
  }
}
