/**
 * Payment intents: create, read, confirm, cancel, and the sweeps of the worker.
 *
 * Invariants: an intent changes state only while its row is locked; an
 * unconfirmed intent is EXPIRED from the instant `expires_at` passes (reads
 * derive it; the sweeper persists it); a confirmation is claimed by setting
 * `confirm_started_at` under the lock, so of N concurrent confirms exactly one
 * proceeds and the others get 409 INTENT_ALREADY_PROCESSED.
 *
 * Which move an intent in a given state allows is decided by rules.ts
 * (confirmStep, cancelStep); this file locks, loads, applies and persists.
 * An intent found expired is persisted EXPIRED and the error is answered in
 * the same commit (transact keeps what was written before the error).
 */
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.js';
import { asJsonb } from '../../db/jsonb.js';
import { executeAsOne } from '../../db/one-statement.js';
import type { Database, PaymentIntentRow } from '../../db/types.js';
import { transact } from '../../db/transact.js';
import { DomainError, isDomainError, notFound, validationFailure, type Outcome } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import { IDEMPOTENCY_LEASE_MS, type IdempotencyService, type ResponseRecorder, type UnclaimedKey } from '../idempotency/index.js';
import type { Clock } from '../../lib/clock.js';
import { isId, type IdGenerator } from '../../lib/ids.js';
import { methodUnavailable, type ChargeMethod, type PreparedCharge } from '../providers/index.js';
import { answerOf, chargeRequestOf, Confirmation, writeAtOnce, type ConfirmationDeps, type ConfirmationResult, type InDatabaseProvider, type PreparingProvider } from './confirmation.js';
import * as repo from './repo.js';
import { boletoDueDate, cancelStep, confirmStep, effectiveStatus, INTENT_LIFETIME_MS, PIX_DEFAULT_EXPIRES_SECONDS, validateCreate, type Refusal } from './rules.js';
import type { CardTokenization, CreateIntentInput, IntentView } from './schemas.js';
import { listPublicKeys, signTicket } from '../vault/index.js';
import type { TransactionView } from '../transactions/index.js';
import { intentView } from './view.js';
import type { VaultNotices } from './vault-notices.js';

/** Checks split rules against the database (approved recipients); provided by the receivables module. */
export type SplitRulesCheck = (companyId: string, input: Pick<CreateIntentInput, 'amountCents' | 'splitRules'>) => Promise<Outcome<void>>;

export interface IntentDeps extends ConfirmationDeps {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  checkSplitRules: SplitRulesCheck;
  /** Stores the responses that recovery finishes under an interrupted request's Idempotency-Key. */
  idempotency: IdempotencyService;
  /** Signs card tickets (shared with the vault, which verifies them). */
  internalKey: Buffer;
  /** Reserves a payment link's slot for each confirmation of one of its intents, whoever confirms it. */
  linkSlotGuard: ClaimGuard;
  /** Tells the vault which card intents are over (vault-notices.ts). */
  vaultNotices: VaultNotices;
}

const intentNotFound = () => notFound('paymentIntent');

/**
 * Runs in the claim's database transaction of an intent made through a
 * payment link, after the intent row is locked and before it is claimed:
 * answers an error to refuse the claim (nothing is charged), or nothing to let
 * it through. The payment-links module implements it (a port, injected by
 * app.ts, so that this module does not depend on that one).
 */
export type ClaimGuard = (trx: Transaction<Database>, intent: PaymentIntentRow, now: Date) => Promise<DomainError | undefined>;

/** Phase 1's result: already confirmed under the key (answer it), or claimed and ready for phase 2. */
export type ConfirmClaim = { done: ConfirmationResult } | { resume: PaymentIntentRow };

export class PaymentIntentService {
  private readonly confirmation: Confirmation;

  constructor(private readonly deps: IntentDeps) {
    this.confirmation = new Confirmation(deps);
  }

  /**
   * POST /v2/payment-intents, its key stored with the statements that do the
   * work: without `confirm`, the intent and the key `DONE` with its view in
   * one SQL statement; with `confirm: true` for a Pix charge or a boleto and a
   * provider whose record is in this database, one statement too
   * (Confirmation.confirmAtCreate); with one that is called, two, one before
   * and one after the call (Confirmation.confirmAroundCall). Undefined: this
   * request takes the general path (`create`, once its key is claimed) — a
   * card with `confirm: true`, an input `create` refuses (it answers the
   * error after the claim, as for any request), or a key that exists.
   */
  async createAtOnce(companyId: string, input: CreateIntentInput, key?: UnclaimedKey): Promise<Outcome<IntentView> | undefined> {
    const provider = this.deps.providers[input.paymentMethod];
    if (!provider) return undefined;
    const confirmNow = input.confirm === true;
    if (confirmNow && (input.paymentMethod === 'CREDIT_CARD' || !(provider.registration || provider.prepare))) return undefined;
    const now = this.deps.clock.now();
    if (validateCreate(input, now).length > 0) return undefined;
    if (isDomainError(await this.deps.checkSplitRules(companyId, input))) return undefined;
    const intent = this.newIntent(companyId, input, now, key?.key);
    if (!confirmNow) {
      const tokenization = intent.payment_method === 'CREDIT_CARD' ? await this.tokenization(intent.id, companyId, intent.expires_at) : undefined;
      if (isDomainError(tokenization)) return undefined;
      return writeAtOnce(this.deps.db, [repo.insertIntentFragment(intent)], intentView(intent, now, undefined, tokenization), key);
    }
    if (provider.registration) return this.confirmation.confirmAtCreate(intent, provider as InDatabaseProvider, key);
    return this.confirmation.confirmAroundCall(intent, provider as PreparingProvider, key);
  }

  /** `paymentLinkId`: the payment link whose hosted page creates the intent (never with `confirm: true`). */
  async create(companyId: string, input: CreateIntentInput, recorder?: ResponseRecorder, paymentLinkId?: string): Promise<Outcome<IntentView>> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const problems = validateCreate(input, now);
    if (problems.length > 0) return validationFailure(problems);
    if (!this.deps.providers[input.paymentMethod]) return methodUnavailable(input.paymentMethod);
    const split = await this.deps.checkSplitRules(companyId, input);
    if (isDomainError(split)) return split;
    const confirmNow = input.confirm === true;
    // A retry whose first attempt died after creating the intent resumes it instead of creating another.
    if (confirmNow && recorder) {
      const earlier = await repo.findIntentByCreateKey(db, companyId, recorder.key);
      if (earlier) return answerOf(await this.confirmation.run(earlier, 'intent', recorder), 'intent');
    }
    const intent = this.newIntent(companyId, input, now, recorder?.key, paymentLinkId);
    const tokenization = intent.payment_method === 'CREDIT_CARD' ? await this.tokenization(intent.id, companyId, intent.expires_at) : undefined;
    if (isDomainError(tokenization)) return tokenization;
    const row = await transact(db, async (trx) => {
      const inserted = await repo.insertIntent(trx, intent);
      if (!confirmNow) await recorder?.save(trx, intentView(inserted, now, undefined, tokenization));
      return inserted;
    });
    if (isDomainError(row)) return row;
    if (!confirmNow) return intentView(row, now, undefined, tokenization);
    return answerOf(await this.confirmation.run(row, 'intent', recorder), 'intent');
  }

  /**
   * A new intent as it will read back from the database: its jsonb members
   * in PostgreSQL's order (db/jsonb.ts), so a view built from it has the
   * bytes of a view built from the row read back. With `confirm: true` it is claimed at once, under the
   * request's key, with its transaction id reserved.
   */
  private newIntent(companyId: string, input: CreateIntentInput, now: Date, key: string | undefined, paymentLinkId?: string): PaymentIntentRow {
    const { newId } = this.deps;
    const confirmNow = input.confirm === true;
    const method = input.paymentMethod;
    return {
      id: newId('pi'),
      company_id: companyId,
      status: method === 'CREDIT_CARD' ? 'REQUIRES_TOKEN' : 'REQUIRES_CONFIRMATION',
      amount_cents: input.amountCents,
      payment_method: method,
      installments: input.installments ?? 1,
      reference_id: input.referenceId,
      description: input.description ?? null,
      buyer: asJsonb(input.buyer),
      split_rules: input.splitRules ? asJsonb(input.splitRules) : null,
      // The schema admits only string members (additionalProperties), which its static type does not say.
      metadata: input.metadata ? asJsonb(input.metadata as Record<string, string>) : null,
      pix_expires_in_seconds: method === 'PIX' ? (input.pix?.expiresInSeconds ?? PIX_DEFAULT_EXPIRES_SECONDS) : null,
      boleto_due_date: method === 'BOLETO' ? boletoDueDate(input, now) : null,
      expires_at: new Date(now.getTime() + INTENT_LIFETIME_MS),
      confirm_started_at: confirmNow ? now : null,
      confirm_key: null,
      create_key: confirmNow ? (key ?? null) : null,
      outcome_unknown_since: null,
      reserved_transaction_id: confirmNow ? newId('trx') : null,
      payment_link_id: paymentLinkId ?? null,
      vault_told_at: null,
      transaction_id: null,
      created_at: now,
      updated_at: now,
    };
  }

  async get(companyId: string, id: string): Promise<Outcome<IntentView>> {
    const row = isId('pi', id) ? await repo.findIntent(this.deps.db, companyId, id) : undefined;
    if (!row) return intentNotFound();
    const now = this.deps.clock.now();
    const tokenization = effectiveStatus(row, now) === 'REQUIRES_TOKEN' ? await this.tokenization(row.id, companyId, row.expires_at) : undefined;
    if (isDomainError(tokenization)) return tokenization;
    return intentView(row, now, undefined, tokenization);
  }

  /** What the buyer's page needs to send the card to the vault: its URL, a ticket for this intent, the current key. */
  private async tokenization(intentId: string, companyId: string, expiresAt: Date): Promise<Outcome<CardTokenization>> {
    const key = (await listPublicKeys(this.deps.db)).find((k) => k.current);
    if (!key) return new DomainError('SERVICE_UNAVAILABLE', ERRORS.SERVICE_UNAVAILABLE.noVaultKey, undefined, 5);
    const ticket = signTicket(this.deps.internalKey, { intentId, companyId, expiresAt });
    return { vaultUrl: this.deps.config.publicVaultUrl, ticket, encryptionKey: key.jwk };
  }

  /** POST /v2/payment-intents/{id}/confirm. The Idempotency-Key (required) names the confirmation. */
  async confirm(companyId: string, id: string, token: string | undefined, recorder: ResponseRecorder): Promise<Outcome<TransactionView>> {
    if (!isId('pi', id)) return intentNotFound();
    const claimed = await this.claim(companyId, id, token !== undefined && token !== '', recorder);
    if (isDomainError(claimed)) return claimed;
    if ('done' in claimed) return claimed.done.transaction;
    return answerOf(await this.confirmation.run(claimed.resume, 'transaction', recorder, token), 'transaction');
  }

  /**
   * POST /v2/payment-intents/{id}/confirm of a Pix charge or boleto, its key
   * stored with the statements that do the work, in a transaction that first
   * locks and reads the intent (its state decides):
   * - a provider whose record is in this database: everything in one
   *   statement of that transaction, one commit (Confirmation.confirmLockedAtOnce);
   * - a provider that is called (a real connector, `prepare`): two commits,
   *   the key STARTED, the intent claimed and the provider's record of the
   *   charge in that transaction, then the call and its outcome in one
   *   statement (Confirmation.callAndRecord).
   * Undefined, nothing written: the general path (the key claimed as usual,
   * then `confirm`) — a card (a token given), an intent not to be claimed now
   * (not found, refused, confirmed or being confirmed), a provider that is
   * unavailable, or a key that exists.
   */
  async confirmAtOnce(companyId: string, id: string, hasToken: boolean, key: UnclaimedKey): Promise<Outcome<TransactionView> | undefined> {
    if (hasToken || !isId('pi', id)) return undefined;
    const now = this.deps.clock.now();
    let claimed: { done: TransactionView } | { intent: PaymentIntentRow; prepared: PreparedCharge } | undefined;
    try {
      claimed = await this.deps.db.transaction().execute(async (trx) => {
        const row = await repo.findIntent(trx, companyId, id, true);
        const provider = row && this.deps.providers[row.payment_method as ChargeMethod];
        if (!row || row.payment_method === 'CREDIT_CARD' || !(provider?.registration || provider?.prepare)) return undefined;
        if (confirmStep(row, now, key.key, false).kind !== 'claim') return undefined;
        // A refusal of the link's slot is answered by the general path.
        if (await this.linkSlotRefusal(trx, row, now)) return undefined;
        const reserved = row.reserved_transaction_id ?? this.deps.newId('trx');
        const intent: PaymentIntentRow = { ...row, confirm_started_at: now, confirm_key: key.key, reserved_transaction_id: reserved, updated_at: now };
        if (provider.registration) {
          const done = await this.confirmation.confirmLockedAtOnce(trx, intent, provider as InDatabaseProvider, key);
          return done && { done };
        }
        const prepared = (provider as PreparingProvider).prepare({ ...chargeRequestOf(intent), method: row.payment_method as 'PIX' | 'BOLETO' });
        await executeAsOne(trx, [repo.claimFragment(intent), prepared.insert, key.insertStarted()]);
        return { intent, prepared };
      });
    } catch (err) {
      if (key.isTaken(err)) return undefined;
      throw err;
    }
    if (!claimed) return undefined;
    if ('done' in claimed) return claimed.done;
    return answerOf(await this.confirmation.callAndRecord(claimed.intent, claimed.prepared, 'transaction', key), 'transaction');
  }

  /**
   * Phase 1 of a confirm, committed on its own: the intent is claimed under the
   * request's key (or found claimed under it by a request that died, or already
   * confirmed under it). An expired intent is persisted EXPIRED with its error.
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
          return { done: await this.confirmation.existing(trx, row, 'transaction', recorder) };
        case 'resume':
          return { resume: row };
        case 'refuse':
          return this.refuse(trx, row, step, now);
        case 'claim': {
          const refused = await this.linkSlotRefusal(trx, row, now);
          if (refused) return refused;
          return {
            resume: await repo.updateIntent(trx, row.id, {
              confirm_started_at: now,
              confirm_key: recorder.key,
              reserved_transaction_id: row.reserved_transaction_id ?? this.deps.newId('trx'),
              updated_at: now,
            }),
          };
        }
      }
    });
  }

  /** Every claim of a payment link's intent (both claim paths) takes one of the link's slots under the link's lock. */
  private async linkSlotRefusal(trx: Transaction<Database>, row: PaymentIntentRow, now: Date): Promise<DomainError | undefined> {
    return row.payment_link_id ? this.deps.linkSlotGuard(trx, row, now) : undefined;
  }

  async cancel(companyId: string, id: string, recorder?: ResponseRecorder): Promise<Outcome<IntentView>> {
    if (!isId('pi', id)) return intentNotFound();
    const now = this.deps.clock.now();
    const answer = await transact(this.deps.db, async (trx) => {
      const row = await repo.findIntent(trx, companyId, id, true);
      if (!row) return intentNotFound();
      const step = cancelStep(row, now);
      if (step.kind === 'refuse') return this.refuse(trx, row, step, now);
      const canceled = intentView(await repo.updateIntent(trx, row.id, { status: 'CANCELED', updated_at: now }), now);
      await recorder?.save(trx, canceled);
      return canceled;
    });
    // The buyer's page may still hold the ticket: the vault refuses it from this notice on (vault-notices.ts).
    if (!isDomainError(answer) && answer.paymentMethod === 'CREDIT_CARD') await this.deps.vaultNotices.tellNow({ id: answer.id, expires_at: new Date(answer.expiresAt) });
    return answer;
  }

  /** Answers a refused confirm or cancel; an intent found expired is persisted EXPIRED in the same commit. */
  private async refuse(trx: Transaction<Database>, row: PaymentIntentRow, refusal: Refusal, now: Date): Promise<DomainError> {
    if (refusal.persistExpired) await repo.updateIntent(trx, row.id, { status: 'EXPIRED', updated_at: now });
    return refusal.error;
  }

  /** Worker: persists EXPIRED on intents past their lifetime. */
  async expireUnconfirmed(): Promise<number> {
    return repo.expireIntents(this.deps.db, this.deps.clock.now());
  }

  /**
   * Worker: finishes confirmations whose process died after phase 1 and that
   * no retry resumed within the idempotency lease, from the acquirer's record.
   * No record for a card is an unknown outcome, not "never charged": an
   * authorization may still be in flight (a paused vault, a retry resuming
   * the key), so the intent FAILS marked unknown and PROVIDER_ERROR is stored
   * under the key; then every unknown outcome is resolved from the acquirer's
   * record (a late approval is reversed: confirmation.ts).
   */
  async recoverStuckConfirmations(limit = 50): Promise<number> {
    const finished = await this.finishStuckConfirmations(limit);
    for (const id of await repo.listUnknownOutcomes(this.deps.db, limit)) await this.confirmation.resolveUnknownOutcome(id);
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
      await this.confirmation.finish(row, record, shape, recorder);
    }
    return stuck.length;
  }
}
