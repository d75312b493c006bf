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
 * Locks: the intent row (FOR UPDATE) in phase 3, so a retry and the recovery
 * worker finishing the same intent record it once; the second finds it
 * CONFIRMED or FAILED and answers that.
 */
import type { Transaction } from 'kysely';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { transact } from '../../db/transact.js';
import type { Database, PaymentIntentRow } from '../../db/types.js';
import { DomainError, isDomainError, type Outcome } from '../../lib/domain-error.js';
import type { ResponseRecorder } from '../idempotency/index.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { AcquirerUnavailable, type Acquirer, type ChargeRecord } from '../acquirer/index.js';
import { sellerProfile } from '../companies/index.js';
import { saleFeeCents, type PaymentMethod } from '../fees/index.js';
import { insertTransaction, transactionView, type TransactionService, type TransactionView } from '../transactions/index.js';
import type { VaultAuthorization, VaultClient } from '../vault/index.js';
import { boletoDetails, cardDetails, pixDetails, type PixDetails } from './payment-details.js';
import * as repo from './repo.js';
import { paymentWindowEnd } from './rules.js';
import type { IntentView } from './schemas.js';
import { intentView } from './view.js';

export interface ConfirmationDeps {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  acquirer: Acquirer;
  transactions: TransactionService;
  config: Pick<Config, 'pixLocationBase' | 'pixMerchantCity' | 'publicVaultUrl'>;
  /** Card authorizations go to the vault, the only place a card is readable. */
  vault: VaultClient;
}

/** What the caller answers: the transaction (POST …/confirm) or the intent holding it (create with `confirm: true`). */
export type ConfirmationShape = 'transaction' | 'intent';
export type ConfirmationResult = { transaction: TransactionView; intent: IntentView };

const providerError = (): DomainError =>
  new DomainError('PROVIDER_ERROR', 'The acquirer did not answer; the payment intent is now FAILED. Create a new intent to retry.');

export class Confirmation {
  constructor(private readonly deps: ConfirmationDeps) {}

  /**
   * Phases 2 and 3 for an intent whose phase 1 committed. A silent acquirer
   * answers PROVIDER_ERROR (the intent is FAILED). A card token the vault
   * refuses (not this intent's, spent, expired) charged nothing: the claim is
   * undone so the buyer can tokenize again, and the vault's error is the answer.
   */
  async run(intent: PaymentIntentRow, shape: ConfirmationShape, recorder?: ResponseRecorder, token?: string): Promise<Outcome<ConfirmationResult>> {
    const answer = await this.charge(intent, token);
    if (answer.kind === 'token-refused') {
      await repo.releaseConfirmation(this.deps.db, intent.id, this.deps.clock.now());
      return answer.error;
    }
    return this.finish(intent, answer.kind === 'charged' ? answer.record : undefined, shape, recorder);
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
      });
    }
    try {
      const record = await this.deps.acquirer.register({ reference: intent.id, method: intent.payment_method as PaymentMethod, amountCents: intent.amount_cents });
      return { kind: 'charged', record };
    } catch (err) {
      if (err instanceof AcquirerUnavailable) return { kind: 'unavailable', reason: err.message };
      throw err;
    }
  }

  /**
   * Phase 3: records the acquirer's answer (`undefined` = silent: the intent
   * FAILS and PROVIDER_ERROR is stored and answered, committed together).
   * Safe to call again for a finished intent.
   */
  async finish(intent: PaymentIntentRow, record: ChargeRecord | undefined, shape: ConfirmationShape, recorder?: ResponseRecorder): Promise<Outcome<ConfirmationResult>> {
    const { db, clock, newId, transactions } = this.deps;
    const now = clock.now();
    const transactionId = newId('trx');
    // The seller is read once: its name goes into the Pix code and the view, its fee plan prices the sale.
    const seller = await sellerProfile(db, intent.company_id);
    // Rendered outside the transaction; discarded if another path finished the intent first.
    const pix = record && intent.payment_method === 'PIX' ? await this.pix(intent, seller.name, transactionId, now) : undefined;
    const card = record && intent.payment_method === 'CREDIT_CARD' ? cardDetails(record) : undefined;
    return transact(db, async (trx): Promise<Outcome<ConfirmationResult>> => {
      const current = (await repo.findIntent(trx, intent.company_id, intent.id, true))!;
      if (current.status === 'CONFIRMED') return this.existing(trx, current, shape, recorder);
      if (current.status === 'FAILED' || !record) {
        if (current.status !== 'FAILED') await repo.updateIntent(trx, current.id, { status: 'FAILED', updated_at: now });
        const failed = providerError();
        await recorder?.save(trx, failed);
        return failed;
      }
      const method = current.payment_method as PaymentMethod;
      const feeCents = saleFeeCents(seller.feePlan, method, current.installments, current.amount_cents);
      const details = pix ?? card ?? boletoDetails(await repo.nextBoletoNumber(trx), current.amount_cents, current.boleto_due_date!);
      const row = await insertTransaction(trx, {
        id: transactionId,
        company_id: current.company_id,
        payment_intent_id: current.id,
        status: 'PENDING',
        payment_method: method,
        installments: current.installments,
        amount_cents: current.amount_cents,
        fee_cents: feeCents,
        net_amount_cents: current.amount_cents - feeCents,
        reference_id: current.reference_id,
        description: current.description,
        buyer: JSON.stringify(current.buyer),
        payment_details: JSON.stringify(details),
        metadata: current.metadata ? JSON.stringify(current.metadata) : null,
        split_rules: current.split_rules ? JSON.stringify(current.split_rules) : null,
        cancel_at: paymentWindowEnd(method, now, current.pix_expires_in_seconds, current.boleto_due_date),
        created_at: now,
        updated_at: now,
      });
      const confirmed = await repo.updateIntent(trx, current.id, { status: 'CONFIRMED', transaction_id: transactionId, updated_at: now });
      // A new transaction has no receivables yet: its view needs no further reads.
      let transaction = transactionView(row, seller.name);
      await transactions.recordCreated(trx, transaction, now);
      // A card is decided at once: approved is PAID (receivables, transaction.paid), refused is FAILED.
      if (card) transaction = await transactions.transition(trx, row, record.approved ? 'PAID' : 'FAILED', now);
      const out = { transaction, intent: intentView(confirmed, now, transaction) };
      await recorder?.save(trx, shape === 'transaction' ? out.transaction : out.intent);
      return out;
    });
  }

  /** The outcome of an intent that is already CONFIRMED (a retry with the winning key). */
  async existing(trx: Transaction<Database>, intent: PaymentIntentRow, shape: ConfirmationShape, recorder?: ResponseRecorder): Promise<ConfirmationResult> {
    const transaction = await this.deps.transactions.find(trx, intent.company_id, intent.transaction_id!);
    if (!transaction) throw new Error(`intent ${intent.id} is CONFIRMED without its transaction ${intent.transaction_id}`);
    const out = { transaction, intent: intentView(intent, this.deps.clock.now(), transaction) };
    await recorder?.save(trx, shape === 'transaction' ? out.transaction : out.intent);
    return out;
  }

  private async pix(intent: PaymentIntentRow, merchantName: string, transactionId: string, now: Date): Promise<PixDetails> {
    return pixDetails({
      locationBase: this.deps.config.pixLocationBase,
      transactionId,
      amountCents: intent.amount_cents,
      merchantName,
      merchantCity: this.deps.config.pixMerchantCity,
      expiresAt: paymentWindowEnd('PIX', now, intent.pix_expires_in_seconds, null)!,
    });
  }
}

/** The part of a confirmation the caller answers with. */
export function answerOf<S extends ConfirmationShape>(outcome: Outcome<ConfirmationResult>, shape: S): Outcome<ConfirmationResult[S]> {
  return isDomainError(outcome) ? outcome : outcome[shape];
}
