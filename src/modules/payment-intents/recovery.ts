/**
 * The sale's recovery: what no request finishes.
 *
 * An unknown outcome is resolved, never guessed. The vault gets a deadline
 * (charge.ts AUTHORIZE_DEADLINE_MS): it starts no authorization after it,
 * and reverses an approval answered after it (`not-charged`). When the vault
 * does not answer at all, the intent is recorded FAILED with
 * `outcome_unknown_since`, and the acquirer's record decides afterwards
 * (`resolveUnknownOutcome`, at once and from the worker): an approval found
 * there is reversed at the acquirer (desfazimento), so FAILED is true and
 * the reversal is on the acquirer's record. An approval that reaches the
 * record stage after the intent was recorded FAILED (a resumed retry racing
 * the worker) is reversed the same way. Only an approval that stands makes a
 * PAID transaction. Such a reversal is told to the seller, since the buyer's
 * statement may show the authorization and its undoing: a
 * `payment_intent.reversed` event (the intent made no transaction, so no
 * transaction event can carry it) in the commit that settles the outcome,
 * and a log line naming the intent (never the card).
 *
 * A process that dies between the claim and the record leaves the intent
 * claimed: a retry with the same key resumes it (the acquirer answers from
 * its record: no second charge), or, once the key's lease ran out, the
 * worker finishes it from the acquirer's record (`recoverStuckConfirmations`).
 */
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database, PaymentIntentRow } from '../../db/types.js';
import { isDomainError, type Outcome } from '../../lib/domain-error.js';
import type { Clock } from '../../lib/clock.js';
import { IDEMPOTENCY_LEASE_MS, type IdempotencyService } from '../idempotency/index.js';
import { isStandingApproval, ProviderUnavailable, type ChargeMethod, type ChargeRecord, type Providers } from '../providers/index.js';
import type { RecordStage } from './record.js';
import * as repo from './repo.js';

/**
 * How long an unknown outcome with no acquirer record is still checked: an
 * authorization started before the deadline by a vault that then died lands
 * within seconds; afterwards none can start (the deadline) or stand (the
 * vault reverses late approvals).
 */
export const UNKNOWN_OUTCOME_WINDOW_MS = 10 * 60_000;

/**
 * Writes an event about an intent that made no transaction in the caller's
 * database transaction (the events module's outbox). A port, so that events
 * may depend on this module (the intent's schema) and not the reverse.
 */
export interface IntentEventsPort {
  recordIntentEvent(
    trx: Transaction<Database>,
    at: Date,
    type: 'payment_intent.reversed',
    companyId: string,
    data: { paymentIntent: ReversedIntent; reversal: { amountCents: number; reversedAt: string } },
  ): Promise<unknown>;
}

/** The intent as payment_intent.reversed names it: who and what, not the buyer (GET /v2/payment-intents/{id} shows all of it). */
type ReversedIntent = { id: string; status: 'FAILED'; amountCents: number; paymentMethod: 'CREDIT_CARD'; referenceId: string; metadata: Record<string, string> };

export interface RecoveryDeps {
  db: Db;
  clock: Clock;
  providers: Providers;
  /** Stores the responses that recovery finishes under an interrupted request's Idempotency-Key. */
  idempotency: IdempotencyService;
  intentEvents: IntentEventsPort;
  /** Where a reversal is logged (the process's logger; none in tests that do not look). */
  log?: { info(fields: object, message: string): void } | undefined;
}

export class Recovery {
  constructor(
    private readonly deps: RecoveryDeps,
    private readonly record: RecordStage,
  ) {}

  /** After a recorded outcome: a card intent that FAILED may have been charged after all, so its outcome is resolved now. */
  async afterRecord(intent: PaymentIntentRow, outcome: Outcome<unknown>): Promise<void> {
    if (intent.payment_method === 'CREDIT_CARD' && isDomainError(outcome)) await this.resolveUnknownOutcome(intent.id);
  }

  /**
   * Resolves a card intent recorded FAILED with an unknown outcome from the
   * acquirer's record: an approval is reversed (desfazimento); a refusal or a
   * reversal settles it; no record settles it once UNKNOWN_OUTCOME_WINDOW_MS
   * has passed. A silent acquirer leaves it for the worker's next pass.
   */
  async resolveUnknownOutcome(intentId: string): Promise<void> {
    const { db, clock } = this.deps;
    const acquirer = this.deps.providers.CREDIT_CARD;
    const since = await repo.outcomeUnknownSince(db, intentId);
    // With cards switched off, the unknown outcome waits for the operator to switch them back on.
    if (!since || !acquirer) return;
    let record: ChargeRecord | undefined;
    try {
      record = await acquirer.findCharge(intentId);
      if (isStandingApproval(record)) record = await acquirer.reverse(intentId);
    } catch (err) {
      if (err instanceof ProviderUnavailable) return;
      throw err;
    }
    if (isStandingApproval(record)) return;
    // The guard's false branch narrows to undefined; a reversed or refused record is neither.
    const settled = record as ChargeRecord | undefined;
    if (!settled && since.getTime() > clock.now().getTime() - UNKNOWN_OUTCOME_WINDOW_MS) return;
    await this.settle(intentId, since, settled?.approved && settled.reversedAt ? settled.reversedAt : undefined);
  }

  /** Settles an unknown outcome; an approval that was reversed gets its event in the same commit, and a log line once committed. */
  private async settle(intentId: string, since: Date, reversedAt: string | undefined): Promise<void> {
    const now = this.deps.clock.now();
    const settled = await this.deps.db.transaction().execute(async (trx) => {
      const row = await repo.clearOutcomeUnknown(trx, intentId, since);
      if (!row || !reversedAt) return undefined;
      const reversal = { amountCents: row.amount_cents, reversedAt };
      const paymentIntent: ReversedIntent = {
        id: row.id,
        status: 'FAILED',
        amountCents: row.amount_cents,
        paymentMethod: 'CREDIT_CARD',
        referenceId: row.reference_id,
        metadata: (row.metadata ?? {}) as Record<string, string>,
      };
      await this.deps.intentEvents.recordIntentEvent(trx, now, 'payment_intent.reversed', row.company_id, { paymentIntent, reversal });
      return row;
    });
    if (settled) this.deps.log?.info({ intentId, companyId: settled.company_id, amountCents: settled.amount_cents, reversedAt }, 'late card approval reversed at the acquirer');
  }

  /**
   * Worker: finishes confirmations whose process died after the claim and
   * that no retry resumed within the idempotency lease, from the acquirer's
   * record. No record for a card is an unknown outcome, not "never charged":
   * an authorization may still be in flight (a paused vault, a retry
   * resuming the key), so the intent FAILS marked unknown and PROVIDER_ERROR
   * is stored under the key; then every unknown outcome is resolved from the
   * acquirer's record (a late approval is reversed).
   */
  async recoverStuckConfirmations(limit: number): Promise<number> {
    const finished = await this.finishStuckConfirmations(limit);
    for (const id of await repo.listUnknownOutcomes(this.deps.db, limit)) await this.resolveUnknownOutcome(id);
    return finished;
  }

  private async finishStuckConfirmations(limit: number): Promise<number> {
    const cutoff = new Date(this.deps.clock.now().getTime() - IDEMPOTENCY_LEASE_MS);
    const stuck = await this.deps.db.transaction().execute((trx) => repo.claimStuckConfirmations(trx, cutoff, limit));
    for (const row of stuck) {
      const record = await this.deps.providers[row.payment_method as ChargeMethod]?.findCharge(row.id);
      const shape = row.create_key ? 'intent' : 'transaction';
      const key = row.create_key ?? row.confirm_key;
      const recorder = key ? this.deps.idempotency.recorderFor(row.company_id, key) : undefined;
      await this.afterRecord(row, await this.record.record(row, record, shape, recorder, 'unknown'));
    }
    return stuck.length;
  }
}
