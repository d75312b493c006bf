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
import type { Db } from '../../db/database.js';
import { asJsonb } from '../../db/jsonb.js';
import type { PaymentIntentRow } from '../../db/types.js';
import { transact } from '../../db/transact.js';
import { DomainError, isDomainError, notFound, validationFailure, type Outcome } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import type { ResponseRecorder, UnclaimedKey } from '../idempotency/index.js';
import type { Clock } from '../../lib/clock.js';
import { isId, type IdGenerator } from '../../lib/ids.js';
import { methodUnavailable } from '../providers/index.js';
import { refuse, type ConfirmClaim } from './claim.js';
import { Confirmation, type ConfirmationDeps } from './confirmation.js';
import * as repo from './repo.js';
import { boletoDueDate, cancelStep, effectiveStatus, INTENT_LIFETIME_MS, PIX_DEFAULT_EXPIRES_SECONDS, validateCreate } from './rules.js';
import { answerOf } from './sale.js';
import type { CardTokenization, CreateIntentInput, IntentView } from './schemas.js';
import { listPublicKeys, signTicket } from '../vault/index.js';
import type { TransactionView } from '../transactions/index.js';
import { intentView } from './view.js';
import type { VaultNotices } from './vault-notices.js';
import { writeAtOnce } from './write-sale.js';

/** Checks split rules against the database (approved recipients); provided by the receivables module. */
export type SplitRulesCheck = (companyId: string, input: Pick<CreateIntentInput, 'amountCents' | 'splitRules'>) => Promise<Outcome<void>>;

export interface IntentDeps extends ConfirmationDeps {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  checkSplitRules: SplitRulesCheck;
  /** Signs card tickets (shared with the vault, which verifies them). */
  internalKey: Buffer;
  /** Tells the vault which card intents are over (vault-notices.ts). */
  vaultNotices: VaultNotices;
}

/**
 * The request's Idempotency-Key as a sale takes it: left unclaimed, for the
 * statements doing the work to store the response with it, and claimed as
 * usual when they cannot (`claim`: the key's scope; undefined when a replay
 * of the stored response was answered instead).
 */
export interface DeferredKey {
  unclaimed: UnclaimedKey;
  claim(): Promise<ResponseRecorder | undefined>;
}

const intentNotFound = () => notFound('paymentIntent');

export class PaymentIntentService {
  private readonly confirmation: Confirmation;

  constructor(private readonly deps: IntentDeps) {
    this.confirmation = new Confirmation(deps);
  }

  /**
   * POST /v2/payment-intents. Its key is stored with the statements that do
   * the work when they can: without `confirm`, the intent and the key `DONE`
   * with its view in one SQL statement; with `confirm: true` for a Pix
   * charge or a boleto, the sale's stages decide (Confirmation.confirmAtCreate).
   * Otherwise the key is claimed first and `create` answers: a card with
   * `confirm: true`, an input `create` refuses (the error is answered after
   * the claim, as for any request), or a key that exists. Undefined: a
   * replay of the key's stored response was answered.
   */
  async createIntent(companyId: string, input: CreateIntentInput, key?: DeferredKey): Promise<Outcome<IntentView> | undefined> {
    const atOnce = await this.createAtOnce(companyId, input, key?.unclaimed);
    if (atOnce !== undefined) return atOnce;
    const recorder = key && (await key.claim());
    if (key && !recorder) return undefined;
    return this.create(companyId, input, recorder);
  }

  private async createAtOnce(companyId: string, input: CreateIntentInput, key: UnclaimedKey | undefined): Promise<Outcome<IntentView> | undefined> {
    if (!this.deps.providers[input.paymentMethod]) return undefined;
    const confirmNow = input.confirm === true;
    if (confirmNow && input.paymentMethod === 'CREDIT_CARD') return undefined;
    const now = this.deps.clock.now();
    if (validateCreate(input, now).length > 0) return undefined;
    if (isDomainError(await this.deps.checkSplitRules(companyId, input))) return undefined;
    const intent = this.newIntent(companyId, input, now, key?.key);
    if (confirmNow) return this.confirmation.confirmAtCreate(intent, key);
    const tokenization = intent.payment_method === 'CREDIT_CARD' ? await this.tokenization(intent.id, companyId, intent.expires_at) : undefined;
    if (isDomainError(tokenization)) return undefined;
    return writeAtOnce(this.deps.db, [repo.insertIntentFragment(intent)], intentView(intent, now, undefined, tokenization), key);
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

  /**
   * POST /v2/payment-intents/{id}/confirm, the Idempotency-Key (required)
   * naming the confirmation: a Pix charge or boleto with its key stored by
   * the statements doing the work when they can (Confirmation.confirmAtOnce),
   * else the key claimed first and `confirm`. Undefined: a replay of the
   * key's stored response was answered.
   */
  async confirmIntent(companyId: string, id: string, token: string | undefined, key: DeferredKey): Promise<Outcome<TransactionView> | undefined> {
    const hasToken = token !== undefined && token !== '';
    const atOnce = hasToken || !isId('pi', id) ? undefined : await this.confirmation.confirmAtOnce(companyId, id, key.unclaimed);
    if (atOnce !== undefined) return atOnce;
    const recorder = await key.claim();
    return recorder && this.confirm(companyId, id, token, recorder);
  }

  /** A confirm under a claimed key (the route's, or a fresh one of the service's own pages): claim, charge, record. */
  async confirm(companyId: string, id: string, token: string | undefined, recorder: ResponseRecorder): Promise<Outcome<TransactionView>> {
    if (!isId('pi', id)) return intentNotFound();
    const claimed = await this.claim(companyId, id, token !== undefined && token !== '', recorder);
    if (isDomainError(claimed)) return claimed;
    if ('done' in claimed) return claimed.done.transaction;
    return answerOf(await this.confirmation.run(claimed.resume, 'transaction', recorder, token), 'transaction');
  }

  /** The claim of a confirm, committed on its own (claim.ts). */
  claim(companyId: string, id: string, hasToken: boolean, recorder: ResponseRecorder): Promise<Outcome<ConfirmClaim>> {
    return this.confirmation.claims.claim(companyId, id, hasToken, recorder);
  }

  async cancel(companyId: string, id: string, recorder?: ResponseRecorder): Promise<Outcome<IntentView>> {
    if (!isId('pi', id)) return intentNotFound();
    const now = this.deps.clock.now();
    const answer = await transact(this.deps.db, async (trx) => {
      const row = await repo.findIntent(trx, companyId, id, true);
      if (!row) return intentNotFound();
      const step = cancelStep(row, now);
      if (step.kind === 'refuse') return refuse(trx, row, step, now);
      const canceled = intentView(await repo.updateIntent(trx, row.id, { status: 'CANCELED', updated_at: now }), now);
      await recorder?.save(trx, canceled);
      return canceled;
    });
    // The buyer's page may still hold the ticket: the vault refuses it from this notice on (vault-notices.ts).
    if (!isDomainError(answer) && answer.paymentMethod === 'CREDIT_CARD') await this.deps.vaultNotices.tellNow({ id: answer.id, expires_at: new Date(answer.expiresAt) });
    return answer;
  }

  /** Worker: persists EXPIRED on intents past their lifetime. */
  async expireUnconfirmed(): Promise<number> {
    return repo.expireIntents(this.deps.db, this.deps.clock.now());
  }

  /** Worker: finishes the confirmations a dead process left and resolves unknown card outcomes (recovery.ts). */
  recoverStuckConfirmations(limit = 50): Promise<number> {
    return this.confirmation.recovery.recoverStuckConfirmations(limit);
  }
}
