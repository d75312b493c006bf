/**
 * The sale's first stage: the claim, committed before any charge. The intent
 * is locked, checked (rules.ts confirmStep), and marked `confirm_started_at`
 * under the request's key, with its transaction id reserved: concurrent
 * confirms now see a confirmation in progress and get 409
 * INTENT_ALREADY_PROCESSED, and a retry with the same key resumes it. A
 * payment link's intent takes one of the link's slots in the same commit.
 *
 * A provider that is called between two commits (`prepare`) has its record
 * of the charge written by the claim, with the request's key STARTED, in one
 * statement; with a provider whose record is in this database the whole
 * sale is written under the claim's lock instead (record.ts recordLocked).
 */
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.js';
import { executeAsOne, type InsertFragment } from '../../db/one-statement.js';
import { transact } from '../../db/transact.js';
import type { Database, PaymentIntentRow } from '../../db/types.js';
import { notFound, type DomainError, type Outcome } from '../../lib/domain-error.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import type { ResponseRecorder, UnclaimedKey } from '../idempotency/index.js';
import { methodUnavailable, type ChargeMethod, type PreparedCharge, type Providers } from '../providers/index.js';
import type { TransactionView } from '../transactions/index.js';
import { prepare, registrationOf, type InDatabaseProvider, type PreparingProvider } from './charge.js';
import type { RecordStage } from './record.js';
import * as repo from './repo.js';
import { confirmStep, type Refusal } from './rules.js';
import type { ConfirmationResult } from './sale.js';
import { keyTakenAsUndefined } from './write-sale.js';

/**
 * Runs in the claim's database transaction of an intent made through a
 * payment link, after the intent row is locked and before it is claimed:
 * answers an error to refuse the claim (nothing is charged), or nothing to let
 * it through. The payment-links module implements it (a port, injected by
 * app.ts, so that this module does not depend on that one).
 */
export type ClaimGuard = (trx: Transaction<Database>, intent: PaymentIntentRow, now: Date) => Promise<DomainError | undefined>;

/** The claim's result: already confirmed under the key (answer it), or claimed and ready for the charge. */
export type ConfirmClaim = { done: ConfirmationResult } | { resume: PaymentIntentRow };

/** A claim that wrote the called provider's record: the intent claimed and its prepared call. */
export type PreparedClaim = { intent: PaymentIntentRow; prepared: PreparedCharge };

export interface ClaimDeps {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  providers: Providers;
  /** Reserves a payment link's slot for each confirmation of one of its intents, whoever confirms it. */
  linkSlotGuard: ClaimGuard;
}

const intentNotFound = () => notFound('paymentIntent');

export class ClaimStage {
  constructor(
    private readonly deps: ClaimDeps,
    private readonly record: RecordStage,
  ) {}

  /**
   * A confirm's claim, committed on its own: the intent claimed under the
   * request's key (or found claimed under it by a request that died, or
   * already confirmed under it). An expired intent is persisted EXPIRED
   * with its error.
   */
  async claim(companyId: string, id: string, hasToken: boolean, recorder: ResponseRecorder): Promise<Outcome<ConfirmClaim>> {
    const now = this.deps.clock.now();
    return transact(this.deps.db, async (trx): Promise<Outcome<ConfirmClaim>> => {
      const row = await repo.findIntent(trx, companyId, id, true);
      if (!row) return intentNotFound();
      const step = confirmStep(row, now, recorder.key, hasToken);
      if (step.kind !== 'existing' && step.kind !== 'refuse' && !this.deps.providers[row.payment_method as ChargeMethod]) {
        return methodUnavailable(row.payment_method as ChargeMethod);
      }
      switch (step.kind) {
        case 'existing':
          return { done: await this.record.existing(trx, row, 'transaction', recorder) };
        case 'resume':
          return { resume: row };
        case 'refuse':
          return refuse(trx, row, step, now);
        case 'claim': {
          const refused = await this.linkSlotRefusal(trx, row, now);
          if (refused) return refused;
          return { resume: await repo.updateIntent(trx, row.id, this.claimColumns(row, recorder.key, now)) };
        }
      }
    });
  }

  /**
   * A Pix or boleto confirm whose key is stored with the statements doing
   * the work, in a transaction that first locks and reads the intent: with a
   * provider in this database the whole sale in one statement of it
   * (`done`); with a called one the intent claimed, the provider's record of
   * the charge and the key STARTED (`prepared`: the call and its record
   * follow). Undefined, nothing written: the claim as usual (`claim`, the key
   * claimed first) answers — a card, an intent not to be claimed now (not
   * found, refused, confirmed or being confirmed), a refused payment link
   * slot, a provider that is unavailable, or a key that exists.
   */
  async claimAtOnce(companyId: string, id: string, key: UnclaimedKey): Promise<{ done: TransactionView } | PreparedClaim | undefined> {
    const now = this.deps.clock.now();
    const claimed = await keyTakenAsUndefined(key, () =>
      this.deps.db.transaction().execute(async (trx) => {
        const row = await repo.findIntent(trx, companyId, id, true);
        const provider = row && this.deps.providers[row.payment_method as ChargeMethod];
        if (!row || row.payment_method === 'CREDIT_CARD' || !(provider?.registration || provider?.prepare)) return undefined;
        if (confirmStep(row, now, key.key, false).kind !== 'claim') return undefined;
        if (await this.linkSlotRefusal(trx, row, now)) return undefined;
        const intent: PaymentIntentRow = { ...row, ...this.claimColumns(row, key.key, now) };
        if (provider.registration) {
          const registration = registrationOf(provider as InDatabaseProvider, intent);
          return registration && { done: (await this.record.recordLocked(trx, intent, registration, key)).transaction };
        }
        const prepared = prepare(provider as PreparingProvider, intent);
        await executeAsOne(trx, [repo.claimFragment(intent), prepared.insert, key.insertStarted()]);
        return { intent, prepared };
      }),
    );
    return claimed ?? undefined;
  }

  /**
   * A create-and-confirm with a called provider, claimed in ONE statement
   * before the call: the request's key STARTED with its lease, the intent
   * (claimed by newIntent: confirm_started_at, its transaction id reserved,
   * create_key) and the provider's record of the charge (its key: the Pix
   * txid). Undefined when the key exists (or an intent was created under
   * it): nothing was written.
   */
  async claimAtCreate(intent: PaymentIntentRow, provider: PreparingProvider, key: UnclaimedKey | undefined): Promise<PreparedCharge | undefined> {
    const prepared = prepare(provider, intent);
    const fragments: InsertFragment[] = [repo.insertIntentFragment(intent), prepared.insert];
    const written = await keyTakenAsUndefined(key, async () => {
      await executeAsOne(this.deps.db, key ? [...fragments, key.insertStarted()] : fragments);
      return true;
    });
    return written ? prepared : undefined;
  }

  /** The columns a claim sets: its time, its key and the transaction id it reserves. */
  private claimColumns(row: PaymentIntentRow, key: string, now: Date) {
    return { confirm_started_at: now, confirm_key: key, reserved_transaction_id: row.reserved_transaction_id ?? this.deps.newId('trx'), updated_at: now };
  }

  /** Every claim of a payment link's intent (both claim paths) takes one of the link's slots under the link's lock. */
  private async linkSlotRefusal(trx: Transaction<Database>, row: PaymentIntentRow, now: Date): Promise<DomainError | undefined> {
    return row.payment_link_id ? this.deps.linkSlotGuard(trx, row, now) : undefined;
  }
}

/** Answers a refused confirm or cancel; an intent found expired is persisted EXPIRED in the same commit. */
export async function refuse(trx: Transaction<Database>, row: PaymentIntentRow, refusal: Refusal, now: Date): Promise<DomainError> {
  if (refusal.persistExpired) await repo.updateIntent(trx, row.id, { status: 'EXPIRED', updated_at: now });
  return refusal.error;
}
