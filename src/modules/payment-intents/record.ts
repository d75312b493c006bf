/**
 * The sale's third stage: the outcome of the charge recorded in one commit
 * (the sale written by write-sale.ts), or the intent FAILED with
 * PROVIDER_ERROR when no charge stands.
 *
 * Which writer mode runs is decided here, by what holds the intent:
 * - nothing yet (a create-and-confirm with a provider in this database): the
 *   intent inserted with its sale, one statement (recordAtCreate);
 * - the caller's lock (a confirm with a provider in this database): one
 *   statement in the caller's transaction (recordLocked);
 * - a claim that committed before a provider call: one statement whose first
 *   part is the conditional UPDATE of the intent (recordGuarded), else
 * - the intent's lock taken here (FOR UPDATE), for cards and every
 *   fallback: the sale in that transaction (record). A retry and the
 *   recovery worker finishing the same intent record it once; the second
 *   finds it CONFIRMED or FAILED and answers that.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { InsertFragment } from '../../db/one-statement.js';
import { transact } from '../../db/transact.js';
import type { Database, PaymentIntentRow } from '../../db/types.js';
import { DomainError, type Outcome } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import type { Clock } from '../../lib/clock.js';
import type { ResponseRecorder, UnclaimedKey } from '../idempotency/index.js';
import { cachedSellerProfile } from '../companies/index.js';
import { isStandingApproval, type ChargeRecord } from '../providers/index.js';
import type { TransactionService } from '../transactions/index.js';
import * as repo from './repo.js';
import { saleOf, transactionIdOf, withImageDrawn, type ConfirmationResult, type ConfirmationShape, type Sale } from './sale.js';
import type { IntentView } from './schemas.js';
import { intentView } from './view.js';
import { claimedIntent, insertedIntent, keyTakenAsUndefined, lockedIntent, writeAtOnce, writeSaleAtOnce, writeSaleGuarded, writeSaleIn } from './write-sale.js';

export interface RecordDeps {
  db: Db;
  clock: Clock;
  transactions: TransactionService;
  config: Pick<Config, 'pixLocationBase' | 'pixMerchantCity'>;
}

/** Whether the FAILED recorded is known (nothing charged) or unknown (resolve from the acquirer's record: recovery.ts). */
export type FailureKnowledge = 'known' | 'unknown';

/** A provider's record of a charge it keeps in this database, with its INSERT for our statement. */
export type Registration = { record: ChargeRecord; insert: InsertFragment };

export const providerError = (): DomainError => new DomainError('PROVIDER_ERROR', ERRORS.PROVIDER_ERROR.intentFailed);

export class RecordStage {
  constructor(private readonly deps: RecordDeps) {}

  /**
   * The sale of `intent` for the charge `record`, with what it is computed
   * from read first: the seller's profile (its name goes into the Pix code
   * and the view, its fee plan prices the sale) and a boleto's number.
   */
  async saleFor(intent: PaymentIntentRow, record: ChargeRecord, now: Date, ex: Kysely<Database> = this.deps.db, providerRecord?: InsertFragment): Promise<Sale> {
    const seller = await cachedSellerProfile(ex, intent.company_id);
    const boletoNumber = intent.payment_method === 'BOLETO' && !record.boleto ? await repo.nextBoletoNumber(ex) : undefined;
    return saleOf(this.deps, { intent, record, seller, now, boletoNumber, providerRecord });
  }

  /**
   * The outcome under the intent's lock (`undefined` = no charge stands or
   * the acquirer was silent: the intent FAILS and PROVIDER_ERROR is stored
   * and answered, committed together; `unknown` marks a card for
   * resolution). A reversed approval moved no money: it is no charge. Safe
   * to call again for a finished intent; an approval that comes to an intent
   * already FAILED marks it for resolution (recovery.ts reverses it).
   */
  async record(
    intent: PaymentIntentRow,
    given: ChargeRecord | undefined,
    shape: ConfirmationShape,
    recorder: ResponseRecorder | undefined,
    knowledge: FailureKnowledge,
  ): Promise<Outcome<ConfirmationResult>> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const record = given?.reversedAt ? undefined : given;
    const sale = record && (await this.saleFor(intent, record, now));
    // The QR image is drawn here, outside the transaction, for the view drawn under the intent's lock to find it drawn.
    if (sale) withImageDrawn(sale.views);
    return transact(db, async (trx): Promise<Outcome<ConfirmationResult>> => {
      const current = (await repo.findIntent(trx, intent.company_id, intent.id, true))!;
      if (current.status === 'CONFIRMED') return this.existing(trx, current, shape, recorder);
      if (current.status === 'FAILED' || !sale) {
        // Unknown, or an approval arriving after FAILED: the acquirer's record decides (recovery.ts).
        const unresolved = current.payment_method === 'CREDIT_CARD' && (knowledge === 'unknown' || isStandingApproval(record));
        if (current.status !== 'FAILED' || unresolved) {
          await repo.updateIntent(trx, current.id, {
            status: 'FAILED',
            outcome_unknown_since: unresolved ? (current.outcome_unknown_since ?? now) : current.outcome_unknown_since,
            updated_at: current.status === 'FAILED' ? current.updated_at : now,
          });
        }
        const failed = providerError();
        await recorder?.save(trx, failed);
        return failed;
      }
      return writeSaleIn(trx, sale, claimedIntent(sale), this.deps.transactions, shape, recorder);
    });
  }

  /**
   * The outcome of a call whose claim committed first (the key STARTED, the
   * intent claimed, the provider's record), in ONE statement with no read
   * first: the intent CONFIRMED, its transaction, the event and its
   * deliveries, the key DONE with the response. The intent is as the claim
   * left it unless a retry or the worker recorded an outcome meanwhile (what
   * the lock of `record` guards against): so the first part is the
   * conditional UPDATE of the intent, a guard (db/one-statement.ts): every
   * other part writes only when it matched. When the condition fails (a
   * concurrent finisher's lock is waited for and its outcome seen), nothing
   * is written and the statement says so; `record` then answers what was
   * recorded.
   */
  async recordGuarded(
    intent: PaymentIntentRow,
    record: ChargeRecord,
    shape: ConfirmationShape,
    key: UnclaimedKey | undefined,
    scope: ResponseRecorder | undefined,
  ): Promise<Outcome<ConfirmationResult>> {
    if (record.reversedAt) return this.record(intent, record, shape, scope, 'unknown');
    const now = this.deps.clock.now();
    const sale = await this.saleFor(intent, record, now);
    const guard = { fragment: repo.confirmClaimedFragment(intent.id, transactionIdOf(intent), now) };
    const written = await writeSaleGuarded(this.deps.db, sale, guard, shape, key && ((response) => key.markDone(response)));
    return written ?? this.record(intent, record, shape, scope, 'unknown');
  }

  /**
   * Create-and-confirm with a provider whose record is in this database, in
   * ONE statement executed on its own: the provider's record, the intent,
   * the transaction, its event and deliveries, and the request's key DONE
   * with the response; one round trip, one commit, all or nothing. A
   * provider that is unavailable (`registration` undefined) writes the
   * intent FAILED with PROVIDER_ERROR stored, as `record` does. Undefined
   * when the key exists (or an intent created under it): nothing was
   * written, and the caller claims the key as usual.
   */
  async recordAtCreate(intent: PaymentIntentRow, registration: Registration | undefined, key: UnclaimedKey | undefined): Promise<Outcome<IntentView> | undefined> {
    if (!registration) return writeAtOnce(this.deps.db, [repo.insertIntentFragment({ ...intent, status: 'FAILED' })], providerError(), key);
    const sale = await this.saleFor(intent, registration.record, this.deps.clock.now(), this.deps.db, registration.insert);
    const insertDone = key && ((response: Outcome<unknown>) => key.insertDone(response));
    return keyTakenAsUndefined(key, async () => (await writeSaleAtOnce(this.deps.db, sale, insertedIntent(sale), 'intent', insertDone)).intent);
  }

  /**
   * A confirm with a provider whose record is in this database, in ONE
   * statement of `trx`, which holds the intent's row locked (claim.ts): the
   * provider's record, the intent CONFIRMED with the columns the claim would
   * have set (`claimed`), its transaction, the event with its deliveries and
   * the key DONE with the response.
   */
  async recordLocked(trx: Transaction<Database>, claimed: PaymentIntentRow, registration: Registration, key: UnclaimedKey): Promise<ConfirmationResult> {
    const sale = await this.saleFor(claimed, registration.record, claimed.updated_at, trx, registration.insert);
    return writeSaleAtOnce(trx, sale, lockedIntent(sale), 'transaction', (response) => key.insertDone(response));
  }

  /** The outcome of an intent that is already CONFIRMED (a retry with the winning key). */
  async existing(trx: Transaction<Database>, intent: PaymentIntentRow, shape: ConfirmationShape, recorder?: ResponseRecorder): Promise<ConfirmationResult> {
    const transaction = await this.deps.transactions.find(trx, intent.company_id, intent.transaction_id!);
    if (!transaction) throw new Error(`intent ${intent.id} is CONFIRMED without its transaction ${intent.transaction_id}`);
    const out = { transaction, intent: intentView(intent, this.deps.clock.now(), transaction) };
    await recorder?.save(trx, shape === 'transaction' ? out.transaction : out.intent);
    return out;
  }
}
