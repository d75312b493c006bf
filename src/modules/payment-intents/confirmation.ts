/**
 * Confirmation of an intent, in atomic phases, because it calls the acquirer
 * (for cards, through the vault) and no network call may sit inside a
 * database transaction:
 *
 *   1. (caller) lock the intent, check it can be confirmed, mark
 *      `confirm_started_at` (+ the Idempotency-Key), commit. Concurrent
 *      confirms now see a confirmation in progress and get 409.
 *   2. call the acquirer, keyed by the intent id (it keeps its own record).
 *   3. lock the intent again and record the outcome in one commit: intent
 *      CONFIRMED, the transaction (Pix / boleto PENDING with
 *      `transaction.created`; card approved: `transaction.created` then PAID
 *      with `transaction.paid`; card refused: `transaction.created` then
 *      FAILED with `transaction.canceled`), the stored idempotent response;
 *      or, when the acquirer was silent, intent FAILED with PROVIDER_ERROR.
 *
 * If the process dies between 1 and 3, either a retry with the same key
 * resumes at 2 (the acquirer answers from its record: no second charge), or
 * the recovery worker finishes the intent from the acquirer's record.
 *
 * An unknown outcome is resolved, never guessed (issue 9, defect 2). The
 * vault gets a deadline (AUTHORIZE_DEADLINE_MS): it starts no authorization
 * after it, and reverses an approval answered after it (`not-charged`). When
 * the vault does not answer at all, the intent is recorded FAILED with
 * `outcome_unknown_since`, and the acquirer's record decides afterwards
 * (`resolveUnknownOutcome`, now and from the worker): an approval found there
 * is reversed at the acquirer (desfazimento), so FAILED is true and the
 * reversal is on the acquirer's record. An approval that reaches phase 3
 * after the intent was recorded FAILED (a resumed retry racing the worker)
 * is reversed the same way. Only an approval that stands makes a PAID
 * transaction.
 *
 * Card data: this module never touches it (its
 * database role may not read the vault's tables). The vault erases a token's
 * card and CVV in the commit that spends it, before calling the acquirer, and
 * its sweep erases those of tokens never spent once their intent is over.
 *
 * Locks: the intent row (FOR UPDATE) in phase 3, so a retry and the recovery
 * worker finishing the same intent record it once; the second finds it
 * CONFIRMED or FAILED and answers that.
 *
 * A Pix charge or boleto whose provider is called (`prepare`) needs no more
 * than two commits: phase 1 also writes the provider's record and the
 * request's key STARTED, and phase 3 is one statement whose conditional
 * UPDATE of the intent stands in for the lock (callAndRecord, recordAtOnce).
 * With a provider whose record is in this database (the sandbox) nothing is
 * called, so there are no phases: one statement, under the intent's lock for
 * a confirm (confirmLockedAtOnce), alone for a create (confirmAtCreate).
 */
import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { asJsonb } from '../../db/jsonb.js';
import { executeAsOne, executeGuarded, type InsertFragment, type StatementFragment } from '../../db/one-statement.js';
import { transact } from '../../db/transact.js';
import type { Database, PaymentIntentRow, TransactionRow } from '../../db/types.js';
import { DomainError, isDomainError, type Outcome } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import type { ResponseRecorder, UnclaimedKey } from '../idempotency/index.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import {
  isStandingApproval,
  methodUnavailable,
  ProviderUnavailable,
  type ChargeBuyer,
  type ChargeRecord,
  type ChargeRequest,
  type PaymentProvider,
  type PreparedCharge,
  type Providers,
} from '../providers/index.js';
import { cachedSellerProfile, type SellerProfile } from '../companies/index.js';
import { saleFeeCents, type PaymentMethod } from '../fees/index.js';
import { insertTransaction, insertTransactionFragment, transactionView, withQrImage, type TransactionService, type TransactionView } from '../transactions/index.js';
import { qrCodePngBase64 } from '../pix/index.js';
import type { VaultAuthorization, VaultClient } from '../vault/index.js';
import { boletoDetails, cardDetails, pixDetails, type BoletoDetails, type CardDetails, type PixDetails } from './payment-details.js';
import * as repo from './repo.js';
import { paymentWindowEnd } from './rules.js';
import type { IntentView } from './schemas.js';
import { intentView } from './view.js';

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
}

/** What the caller answers: the transaction (POST …/confirm) or the intent holding it (create with `confirm: true`). */
export type ConfirmationShape = 'transaction' | 'intent';
export type ConfirmationResult = { transaction: TransactionView; intent: IntentView };

/** How long the vault may take to START a card authorization; the API waits a few seconds more for the answer (vault/client.ts). */
export const AUTHORIZE_DEADLINE_MS = 10_000;

/**
 * How long an unknown outcome with no acquirer record is still checked: an
 * authorization started before the deadline by a vault that then died lands
 * within seconds; afterwards none can start (the deadline) or stand (the
 * vault reverses late approvals).
 */
export const UNKNOWN_OUTCOME_WINDOW_MS = 10 * 60_000;

/** Whether the FAILED recorded in phase 3 is known (nothing charged) or unknown (resolve from the acquirer's record). */
type FailureKnowledge = 'known' | 'unknown';

const providerError = (): DomainError =>
  new DomainError('PROVIDER_ERROR', ERRORS.PROVIDER_ERROR.intentFailed);

export class Confirmation {
  constructor(private readonly deps: ConfirmationDeps) {}

  /**
   * Phases 2 and 3 for an intent whose phase 1 committed. A silent acquirer
   * answers PROVIDER_ERROR (the intent is FAILED). A refusal before any
   * charge (a card token not this intent's, spent or expired; a method switched
   * off) charged nothing: the claim is undone so the buyer can try again, and
   * the refusal is the answer.
   */
  async run(intent: PaymentIntentRow, shape: ConfirmationShape, recorder?: ResponseRecorder, token?: string): Promise<Outcome<ConfirmationResult>> {
    const answer = await this.charge(intent, token);
    switch (answer.kind) {
      case 'refused':
        await repo.releaseConfirmation(this.deps.db, intent.id, this.deps.clock.now());
        return answer.error;
      case 'charged':
        return this.finish(intent, answer.record, shape, recorder);
      case 'not-charged':
        return this.finish(intent, undefined, shape, recorder, 'known');
      case 'unavailable':
        return this.finish(intent, undefined, shape, recorder, 'unknown');
    }
  }

  /** Phase 2: a card through the vault, Pix and boleto straight to the acquirer; both keyed by the intent id. */
  private async charge(intent: PaymentIntentRow, token: string | undefined): Promise<VaultAuthorization> {
    if (intent.payment_method === 'CREDIT_CARD') {
      return this.deps.vault.authorize({
        token: token ?? '',
        intentId: intent.id,
        companyId: intent.company_id,
        amountCents: intent.amount_cents,
        installments: intent.installments,
        deadline: this.deps.clock.now().getTime() + AUTHORIZE_DEADLINE_MS,
      });
    }
    const method = intent.payment_method as 'PIX' | 'BOLETO';
    const provider = this.deps.providers[method];
    // Switched off after the claim: refused before any charge, the claim is undone.
    if (!provider) return { kind: 'refused', error: methodUnavailable(method) };
    try {
      const record = await provider.register({ ...chargeRequestOf(intent), method });
      return { kind: 'charged', record };
    } catch (err) {
      if (err instanceof ProviderUnavailable) return { kind: 'unavailable', reason: err.message };
      throw err;
    }
  }

  /**
   * Phase 3: records the acquirer's answer (`undefined` = no charge stands or
   * the acquirer was silent: the intent FAILS and PROVIDER_ERROR is stored and
   * answered, committed together; `unknown` marks it for resolution). A
   * reversed approval is no charge. Safe to call again for a finished intent;
   * an approval that comes to an intent already FAILED is reversed.
   */
  async finish(
    intent: PaymentIntentRow,
    given: ChargeRecord | undefined,
    shape: ConfirmationShape,
    recorder?: ResponseRecorder,
    knowledge: FailureKnowledge = 'unknown',
  ): Promise<Outcome<ConfirmationResult>> {
    // A reversed approval moved no money: it is recorded as no charge (only approvals are ever reversed).
    const outcome = await this.record(intent, given?.reversedAt ? undefined : given, shape, recorder, knowledge);
    if (intent.payment_method === 'CREDIT_CARD' && isDomainError(outcome)) await this.resolveUnknownOutcome(intent.id);
    return outcome;
  }

  private async record(
    intent: PaymentIntentRow,
    record: ChargeRecord | undefined,
    shape: ConfirmationShape,
    recorder: ResponseRecorder | undefined,
    knowledge: FailureKnowledge,
  ): Promise<Outcome<ConfirmationResult>> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const transactionId = transactionIdOf(intent);
    // The seller is read once: its name goes into the Pix code and the view, its fee plan prices the sale.
    const seller = await cachedSellerProfile(db, intent.company_id);
    const pix = record && intent.payment_method === 'PIX' ? this.pix(intent.amount_cents, intent.pix_expires_in_seconds, record, seller.name, transactionId, now) : undefined;
    // The QR image is drawn here, outside the transaction, for the view drawn under the intent's lock to find it drawn.
    if (pix) qrCodePngBase64(pix.pix.qrCode);
    const card = record && intent.payment_method === 'CREDIT_CARD' ? cardDetails(record) : undefined;
    return transact(db, async (trx): Promise<Outcome<ConfirmationResult>> => {
      const current = (await repo.findIntent(trx, intent.company_id, intent.id, true))!;
      if (current.status === 'CONFIRMED') return this.existing(trx, current, shape, recorder);
      if (current.status === 'FAILED' || !record) {
        // Unknown, or an approval arriving after FAILED: the acquirer's record decides (resolveUnknownOutcome).
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
      const confirmed = await repo.updateIntent(trx, current.id, { status: 'CONFIRMED', transaction_id: transactionId, updated_at: now });
      const out = await this.writeTransaction(trx, confirmed, record, seller, pix ?? card, now);
      await recorder?.save(trx, shape === 'transaction' ? out.transaction : out.intent);
      return out;
    });
  }

  /**
   * Create-and-confirm with a provider whose record is in this database
   * (`registration`: the simulated one) in ONE SQL statement executed on its
   * own (db/one-statement.ts): the provider's record, the intent, the
   * transaction, its event and deliveries, and the request's key DONE with the
   * response — one round trip, one commit, all or nothing. A boleto first
   * takes its number from the sequence (a read, no commit). The response is
   * built from the values written, whose jsonb members are in PostgreSQL's
   * order: the bytes the event body holds and a view of the rows read back
   * shows. A silent provider writes the intent FAILED with PROVIDER_ERROR stored, as
   * the phased path does. Undefined when the key exists (or an intent created
   * under it): nothing was written, and the caller claims the key as usual.
   */
  async confirmAtCreate(intent: PaymentIntentRow, provider: InDatabaseProvider, key?: UnclaimedKey): Promise<Outcome<IntentView> | undefined> {
    const now = this.deps.clock.now();
    const registration = registrationOf(provider, intent);
    if (!registration) return writeAtOnce(this.deps.db, [repo.insertIntentFragment({ ...intent, status: 'FAILED' })], providerError(), key);
    const sale = await this.saleInMemory(intent, registration.record, now);
    const fragments: InsertFragment[] = [
      repo.insertIntentFragment(sale.confirmed),
      registration.insert,
      insertTransactionFragment(sale.row),
      ...sale.created,
    ];
    return writeAtOnce(this.deps.db, fragments, sale.out.intent, key, () => sale.drawn().intent);
  }

  /**
   * A confirm (POST …/confirm) with a provider whose record is in this
   * database, in ONE statement of `trx`, which holds the intent's row locked
   * (PaymentIntentService.confirmAtOnce; one commit): the provider's record,
   * the intent CONFIRMED with the columns the phased path's claim would have
   * set (`claimed`), its transaction, the event with its deliveries and the
   * key DONE with the response. Undefined when the provider is unavailable:
   * nothing is written, and the phased path answers.
   */
  async confirmLockedAtOnce(trx: Transaction<Database>, claimed: PaymentIntentRow, provider: InDatabaseProvider, key: UnclaimedKey): Promise<TransactionView | undefined> {
    const registration = registrationOf(provider, claimed);
    if (!registration) return undefined;
    const sale = await this.saleInMemory(claimed, registration.record, claimed.updated_at, trx);
    const fragments: StatementFragment[] = [repo.confirmLockedFragment(sale.confirmed), registration.insert, insertTransactionFragment(sale.row), ...sale.created];
    return (await drawWhileWriting(executeAsOne(trx, [...fragments, key.insertDone(sale.out.transaction)]), sale.drawn)).transaction;
  }

  /**
   * Create-and-confirm with a provider that is called (a real connector,
   * `prepare`) in exactly two commits, each ONE statement (db/one-statement.ts):
   *   1. before the call: the request's key STARTED with its lease, the
   *      intent claimed (phase 1: confirm_started_at, its transaction id
   *      reserved, create_key) and the provider's record of the charge (its
   *      key: the Pix txid);
   *   2. after it: the outcome (recordAtOnce).
   * A twin meanwhile gets 409 IDEMPOTENCY_KEY_IN_USE (the key is STARTED); a
   * process dying between them leaves what phase 1 leaves: a retry with the
   * key resumes once the lease ran out (the provider answers from its
   * record), the worker finishes it otherwise. Undefined when the key exists
   * (or an intent was created under it): nothing was written, and the caller
   * claims the key as usual.
   */
  async confirmAroundCall(intent: PaymentIntentRow, provider: PreparingProvider, key?: UnclaimedKey): Promise<Outcome<IntentView> | undefined> {
    const prepared = provider.prepare({ ...chargeRequestOf(intent), method: intent.payment_method as 'PIX' | 'BOLETO' });
    const claim: InsertFragment[] = [repo.insertIntentFragment(intent), prepared.insert];
    try {
      await executeAsOne(this.deps.db, key ? [...claim, key.insertStarted()] : claim);
    } catch (err) {
      if (key && keyExists(err, key)) return undefined;
      throw err;
    }
    return answerOf(await this.callAndRecord(intent, prepared, 'intent', key), 'intent');
  }

  /**
   * Phases 2 and 3 after a claim that wrote the provider's record and, with a
   * key, the key STARTED (confirmAroundCall, PaymentIntentService.confirmAtOnce):
   * the call, then its outcome in one statement (recordAtOnce). A silent
   * provider makes the intent FAIL with PROVIDER_ERROR stored, as in phase 3;
   * any other failure answers 500 as in the phased path: the key is released,
   * the claimed intent waits for a retry or the worker.
   */
  async callAndRecord(intent: PaymentIntentRow, prepared: PreparedCharge, shape: ConfirmationShape, key?: UnclaimedKey): Promise<Outcome<ConfirmationResult>> {
    const scope = key?.claimed();
    let record: ChargeRecord;
    try {
      record = await prepared.send();
    } catch (err) {
      if (err instanceof ProviderUnavailable) return this.finish(intent, undefined, shape, scope);
      await scope?.release();
      throw err;
    }
    return this.recordAtOnce(intent, record, shape, key, scope);
  }

  /**
   * Phase 3 of callAndRecord in one statement, with no read first: the
   * intent CONFIRMED, its transaction, the event and its deliveries, the key
   * DONE with the response. The intent is as the claim left it unless a retry
   * or the worker recorded an outcome meanwhile (what phase 3's FOR UPDATE
   * read guards against): so the first part is the conditional UPDATE of the
   * intent, a guard (db/one-statement.ts): every other part writes only when
   * it matched. When the condition fails (a concurrent finisher's lock is
   * waited for and its outcome seen), nothing is written and the statement
   * says so; the locked phase 3 (`finish`) then answers what was recorded.
   */
  private async recordAtOnce(
    intent: PaymentIntentRow,
    record: ChargeRecord,
    shape: ConfirmationShape,
    key: UnclaimedKey | undefined,
    scope: ResponseRecorder | undefined,
  ): Promise<Outcome<ConfirmationResult>> {
    if (record.reversedAt) return this.finish(intent, record, shape, scope);
    const now = this.deps.clock.now();
    const transactionId = transactionIdOf(intent);
    const { row, out, created, drawn } = await this.saleInMemory(intent, record, now);
    const fragments: StatementFragment[] = [repo.confirmClaimedFragment(intent.id, transactionId, now), insertTransactionFragment(row), ...created];
    let matched = false;
    const statement = executeGuarded(this.deps.db, key ? [...fragments, key.markDone(out[shape])] : fragments).then((m) => {
      matched = m;
    });
    const answer = await drawWhileWriting(statement, drawn);
    return matched ? answer : this.finish(intent, record, shape, scope);
  }

  /**
   * A confirmation's effect built in memory, nothing read back (the one-statement paths): the intent
   * CONFIRMED, its PENDING transaction priced with the seller's fee plan, the views, and the INSERTs of
   * the transaction's `transaction.created` with its deliveries. The views lack the Pix QR image, which
   * nothing stored holds (the event and the key's response leave it out): `drawn()` answers them with
   * it, drawn while PostgreSQL writes the statement (drawWhileWriting).
   */
  private async saleInMemory(intent: PaymentIntentRow, record: ChargeRecord, now: Date, ex: Kysely<Database> = this.deps.db) {
    const transactionId = transactionIdOf(intent);
    const seller = await cachedSellerProfile(ex, intent.company_id);
    const confirmed: PaymentIntentRow = { ...intent, status: 'CONFIRMED', transaction_id: transactionId, updated_at: now };
    const details =
      intent.payment_method === 'PIX'
        ? this.pix(intent.amount_cents, intent.pix_expires_in_seconds, record, seller.name, transactionId, now)
        : await boletoOf(ex, intent, record);
    const row = newTransactionRow(confirmed, seller, details, now);
    const transaction = transactionView(row, seller.name, [], false);
    const out: ConfirmationResult = { transaction, intent: intentView(confirmed, now, transaction) };
    return { confirmed, row, out, created: this.deps.transactions.createdQueries(transaction, now), drawn: () => withImageDrawn(out) };
  }

  /**
   * The transaction of a CONFIRMED intent, inserted with its `transaction.created`
   * (and, for a card, the move to PAID or FAILED) in the caller's database transaction.
   */
  private async writeTransaction(
    trx: Transaction<Database>,
    intent: PaymentIntentRow,
    record: ChargeRecord,
    seller: SellerProfile,
    rendered: PixDetails | CardDetails | undefined,
    now: Date,
  ): Promise<ConfirmationResult> {
    const details = rendered ?? (await boletoOf(trx, intent, record));
    const row = await insertTransaction(trx, newTransactionRow(intent, seller, details, now));
    // A new transaction has no receivables yet: its view needs no further reads.
    let transaction = transactionView(row, seller.name);
    await this.deps.transactions.recordCreated(trx, transaction, now);
    // A card is decided at once: approved is PAID (receivables, transaction.paid), refused is FAILED.
    if (row.payment_method === 'CREDIT_CARD') transaction = await this.deps.transactions.transition(trx, row, record.approved ? 'PAID' : 'FAILED', now);
    return { transaction, intent: intentView(intent, now, transaction) };
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
    if (!record && since.getTime() > clock.now().getTime() - UNKNOWN_OUTCOME_WINDOW_MS) return;
    await repo.clearOutcomeUnknown(db, intentId, since);
  }

  /** The outcome of an intent that is already CONFIRMED (a retry with the winning key). */
  async existing(trx: Transaction<Database>, intent: PaymentIntentRow, shape: ConfirmationShape, recorder?: ResponseRecorder): Promise<ConfirmationResult> {
    const transaction = await this.deps.transactions.find(trx, intent.company_id, intent.transaction_id!);
    if (!transaction) throw new Error(`intent ${intent.id} is CONFIRMED without its transaction ${intent.transaction_id}`);
    const out = { transaction, intent: intentView(intent, this.deps.clock.now(), transaction) };
    await recorder?.save(trx, shape === 'transaction' ? out.transaction : out.intent);
    return out;
  }

  /** The provider's "copia e cola" when it issued one (a real PSP), else the code we build (simulated). */
  private pix(
    amountCents: number,
    expiresInSeconds: number | null,
    record: ChargeRecord | undefined,
    merchantName: string,
    transactionId: string,
    now: Date,
  ): PixDetails {
    return pixDetails({
      issuedCode: record?.pix?.qrCode,
      locationBase: this.deps.config.pixLocationBase,
      transactionId,
      amountCents,
      merchantName,
      merchantCity: this.deps.config.pixMerchantCity,
      expiresAt: paymentWindowEnd('PIX', now, expiresInSeconds, null)!,
    });
  }
}

/**
 * The id of the transaction a confirmation makes: reserved when it was
 * claimed, so a retry sends the provider the same key. Intents claimed
 * before the reservation existed get one derived from the intent id.
 */
function transactionIdOf(intent: PaymentIntentRow): string {
  return intent.reserved_transaction_id ?? `trx_${intent.id.slice('pi_'.length)}`;
}

/**
 * The PENDING transaction of a CONFIRMED intent, priced with the seller's fee
 * plan, as it will read back (jsonb members in PostgreSQL's order: db/jsonb.ts).
 */
function newTransactionRow(intent: PaymentIntentRow, seller: SellerProfile, details: PaymentDetails, now: Date): TransactionRow {
  const method = intent.payment_method as PaymentMethod;
  const feeCents = saleFeeCents(seller.feePlan, method, intent.installments, intent.amount_cents);
  return {
    id: intent.transaction_id!,
    company_id: intent.company_id,
    payment_intent_id: intent.id,
    status: 'PENDING',
    payment_method: method,
    installments: intent.installments,
    amount_cents: intent.amount_cents,
    fee_cents: feeCents,
    net_amount_cents: intent.amount_cents - feeCents,
    reference_id: intent.reference_id,
    description: intent.description,
    buyer: intent.buyer,
    payment_details: asJsonb(details),
    metadata: intent.metadata,
    split_rules: intent.split_rules,
    cancel_at: paymentWindowEnd(method, now, intent.pix_expires_in_seconds, intent.boleto_due_date),
    payment_link_id: intent.payment_link_id,
    refunded_cents: 0,
    sale_fee_cents: null,
    charged_back_cents: 0,
    charged_back_at: null,
    paid_at: null,
    canceled_at: null,
    created_at: now,
    updated_at: now,
    version: 1,
  };
}

/** The boleto the provider issued, else ours (the simulated provider), numbered from the sequence. */
async function boletoOf(ex: Kysely<Database>, intent: PaymentIntentRow, record: ChargeRecord): Promise<BoletoDetails> {
  return record.boleto
    ? { boleto: { ...record.boleto, dueDate: intent.boleto_due_date! } }
    : boletoDetails(await repo.nextBoletoNumber(ex), intent.amount_cents, intent.boleto_due_date!);
}

/** The in-database provider's record of the intent's charge and its INSERT; undefined when the provider is unavailable. */
function registrationOf(provider: InDatabaseProvider, intent: PaymentIntentRow): ReturnType<InDatabaseProvider['registration']> | undefined {
  try {
    return provider.registration({ ...chargeRequestOf(intent), method: intent.payment_method as 'PIX' | 'BOLETO' });
  } catch (err) {
    if (err instanceof ProviderUnavailable) return undefined;
    throw err;
  }
}

/**
 * The fragments and the key's row DONE with `outcome`, as one statement; undefined when the key was
 * taken. The answer is `outcome`, or `answer()` (drawn while the statement runs) when given.
 */
export async function writeAtOnce<T>(db: Db, fragments: InsertFragment[], outcome: Outcome<T>, key: UnclaimedKey | undefined, answer?: () => T): Promise<Outcome<T> | undefined> {
  try {
    const statement = executeAsOne(db, key ? [...fragments, key.insertDone(outcome)] : fragments);
    if (!answer) {
      await statement;
      return outcome;
    }
    return await drawWhileWriting(statement, answer);
  } catch (err) {
    if (key && keyExists(err, key)) return undefined;
    throw err;
  }
}

/**
 * `draw()`'s result once `statement` succeeded, drawn while PostgreSQL executes and commits it: the
 * statement reaches its connection first (within the current turn of the event loop; draw() waits for
 * the next), so at low load the drawing (a Pix QR image: up to a quarter of a sale's CPU) costs no latency.
 */
async function drawWhileWriting<T>(statement: Promise<void>, draw: () => T): Promise<T> {
  const [, drawn] = await Promise.all([statement, new Promise<void>((resolve) => setImmediate(resolve)).then(draw)]);
  return drawn;
}

/** The views with the Pix QR image drawn into their transaction (the intent view holds the same transaction view). */
function withImageDrawn(out: ConfirmationResult): ConfirmationResult {
  const paymentDetails = withQrImage(out.transaction.paymentDetails);
  if (paymentDetails === out.transaction.paymentDetails) return out;
  const transaction = { ...out.transaction, paymentDetails };
  return { transaction, intent: { ...out.intent, transaction } };
}

/** Whether a statement failed because its request's key, or an intent created under it, already exists. */
function keyExists(err: unknown, key: UnclaimedKey): boolean {
  return key.isTaken(err) || repo.isCreateKeyTaken(err);
}

/** What the provider is asked to register for an intent (Pix or boleto). */
export function chargeRequestOf(intent: PaymentIntentRow): Omit<ChargeRequest, 'method'> {
  return {
    reference: intent.id,
    transactionId: transactionIdOf(intent),
    amountCents: intent.amount_cents,
    buyer: intent.buyer as ChargeBuyer,
    ...(intent.description ? { description: intent.description } : {}),
    ...(intent.pix_expires_in_seconds ? { expiresInSeconds: intent.pix_expires_in_seconds } : {}),
    ...(intent.boleto_due_date ? { dueDate: intent.boleto_due_date } : {}),
  };
}

/** A provider called between two commits whose first one writes its record (see PaymentProvider.prepare). */
export type PreparingProvider = PaymentProvider & Required<Pick<PaymentProvider, 'prepare'>>;

/** A provider whose record is written by our own statement (see PaymentProvider.registration). */
export type InDatabaseProvider = PaymentProvider & Required<Pick<PaymentProvider, 'registration'>>;

type PaymentDetails = PixDetails | CardDetails | BoletoDetails;

/** The part of a confirmation the caller answers with. */
export function answerOf<S extends ConfirmationShape>(outcome: Outcome<ConfirmationResult>, shape: S): Outcome<ConfirmationResult[S]> {
  return isDomainError(outcome) ? outcome : outcome[shape];
}
