/**
 * The confirmation of an intent: a sale in stages, one file each, because it
 * calls the acquirer (for cards, through the vault) and no network call may
 * sit inside a database transaction:
 *
 *   claim    (claim.ts)    lock the intent, check it, mark confirm_started_at
 *                          under the request's key, commit; with a called
 *                          provider, its record of the charge and the key
 *                          STARTED in the same statement.
 *   charge   (charge.ts)   the provider call or the vault's authorization,
 *                          keyed by the intent id.
 *   record   (record.ts)   the outcome in one commit: the sale (sale.ts, one
 *                          value) written by its one writer (write-sale.ts),
 *                          or the intent FAILED with PROVIDER_ERROR.
 *   recovery (recovery.ts) unknown outcomes resolved, late approvals
 *                          reversed, confirmations a dead process left.
 *
 * With a provider whose record is in this database (the sandbox) nothing is
 * called, so there are no stages in between: the sale is one statement,
 * under the intent's lock for a confirm, alone for a create. With a called
 * provider (`prepare`) a Pix charge or boleto takes two commits, each one
 * statement: the claim, then the guarded record. Everything else (cards,
 * and requests whose key was claimed first) takes the locked stages.
 *
 * This file decides which: one entry per operation, the stages below it.
 */
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { PaymentIntentRow } from '../../db/types.js';
import type { Outcome } from '../../lib/domain-error.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import type { IdempotencyService, ResponseRecorder, UnclaimedKey } from '../idempotency/index.js';
import type { ChargeRecord, PreparedCharge, Providers } from '../providers/index.js';
import type { TransactionService, TransactionView } from '../transactions/index.js';
import type { VaultClient } from '../vault/index.js';
import { charge, registrationOf, send, type InDatabaseProvider, type PreparingProvider } from './charge.js';
import { ClaimStage, type ClaimGuard } from './claim.js';
import { RecordStage, type FailureKnowledge } from './record.js';
import { Recovery, type IntentEventsPort, type RecoveryDeps } from './recovery.js';
import * as repo from './repo.js';
import { answerOf, type ConfirmationResult, type ConfirmationShape } from './sale.js';
import type { IntentView } from './schemas.js';

export { AUTHORIZE_DEADLINE_MS } from './charge.js';
export { UNKNOWN_OUTCOME_WINDOW_MS } from './recovery.js';

export interface ConfirmationDeps {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  /** The connector of each method (absent: switched off). */
  providers: Providers;
  transactions: TransactionService;
  config: Pick<Config, 'pixLocationBase' | 'pixMerchantCity' | 'publicVaultUrl'>;
  /** Card authorizations go to the vault, the only place a card is readable. */
  vault: VaultClient;
  /** Stores the responses that recovery finishes under an interrupted request's Idempotency-Key. */
  idempotency: IdempotencyService;
  /** Reserves a payment link's slot for each confirmation of one of its intents, whoever confirms it. */
  linkSlotGuard: ClaimGuard;
  /** Writes payment_intent.reversed (recovery.ts). */
  intentEvents: IntentEventsPort;
  log?: RecoveryDeps['log'];
}

export class Confirmation {
  readonly claims: ClaimStage;
  readonly records: RecordStage;
  readonly recovery: Recovery;

  constructor(private readonly deps: ConfirmationDeps) {
    this.records = new RecordStage(deps);
    this.claims = new ClaimStage(deps, this.records);
    this.recovery = new Recovery(deps, this.records);
  }

  /**
   * Create-and-confirm of a Pix charge or boleto with its key stored by the
   * statements doing the work: with a provider in this database one
   * statement (record.ts recordAtCreate); with a called one two, the claim
   * before the call and the guarded record after it. Undefined, nothing
   * written: the key exists (or an intent was created under it), or the
   * provider is neither, and the caller claims the key as usual.
   */
  async confirmAtCreate(intent: PaymentIntentRow, key: UnclaimedKey | undefined): Promise<Outcome<IntentView> | undefined> {
    const provider = this.deps.providers[intent.payment_method as 'PIX' | 'BOLETO'];
    if (provider?.registration) return this.records.recordAtCreate(intent, registrationOf(provider as InDatabaseProvider, intent), key);
    if (!provider?.prepare) return undefined;
    const prepared = await this.claims.claimAtCreate(intent, provider as PreparingProvider, key);
    return prepared && answerOf(await this.callAndRecord(intent, prepared, 'intent', key), 'intent');
  }

  /**
   * A Pix or boleto confirm with its key stored by the statements doing the
   * work (claim.ts claimAtOnce): one statement with a provider in this
   * database, the claim and the guarded record around the call with a called
   * one. Undefined, nothing written: the key is claimed as usual and `run`
   * follows the claim.
   */
  async confirmAtOnce(companyId: string, id: string, key: UnclaimedKey): Promise<Outcome<TransactionView> | undefined> {
    const claimed = await this.claims.claimAtOnce(companyId, id, key);
    if (!claimed) return undefined;
    if ('done' in claimed) return claimed.done;
    return answerOf(await this.callAndRecord(claimed.intent, claimed.prepared, 'transaction', key), 'transaction');
  }

  /**
   * The charge and the record for an intent whose claim committed. A silent
   * acquirer answers PROVIDER_ERROR (the intent is FAILED). A refusal before
   * any charge (a card token not this intent's, spent or expired; a method
   * switched off) charged nothing: the claim is undone so the buyer can try
   * again, and the refusal is the answer.
   */
  async run(intent: PaymentIntentRow, shape: ConfirmationShape, recorder?: ResponseRecorder, token?: string): Promise<Outcome<ConfirmationResult>> {
    const answer = await charge(this.deps, intent, token);
    switch (answer.kind) {
      case 'refused':
        await repo.releaseConfirmation(this.deps.db, intent.id, this.deps.clock.now());
        return answer.error;
      case 'charged':
        return this.finish(intent, answer.record, shape, recorder, 'unknown');
      case 'not-charged':
        return this.finish(intent, undefined, shape, recorder, 'known');
      case 'unavailable':
        return this.finish(intent, undefined, shape, recorder, 'unknown');
    }
  }

  /**
   * The call after a claim that wrote the provider's record and, with a key,
   * the key STARTED, then its outcome in one statement (the guarded record).
   * A silent provider makes the intent FAIL with PROVIDER_ERROR stored; any
   * other failure answers 500 as the locked stages do: the key is released,
   * the claimed intent waits for a retry or the worker.
   */
  private async callAndRecord(intent: PaymentIntentRow, prepared: PreparedCharge, shape: ConfirmationShape, key?: UnclaimedKey): Promise<Outcome<ConfirmationResult>> {
    const scope = key?.claimed();
    let answer: Awaited<ReturnType<typeof send>>;
    try {
      answer = await send(prepared);
    } catch (err) {
      await scope?.release();
      throw err;
    }
    if (answer.kind === 'unavailable') return this.finish(intent, undefined, shape, scope, 'unknown');
    return this.records.recordGuarded(intent, answer.record, shape, key, scope);
  }

  /** The record under the intent's lock, then the resolution of a card that FAILED (recovery.ts). */
  private async finish(
    intent: PaymentIntentRow,
    record: ChargeRecord | undefined,
    shape: ConfirmationShape,
    recorder: ResponseRecorder | undefined,
    knowledge: FailureKnowledge,
  ): Promise<Outcome<ConfirmationResult>> {
    const outcome = await this.records.record(intent, record, shape, recorder, knowledge);
    await this.recovery.afterRecord(intent, outcome);
    return outcome;
  }
}
