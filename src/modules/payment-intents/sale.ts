/**
 * A sale: everything a confirmation writes, as one value computed once and
 * with no I/O (its inputs are read before: the seller's profile, a boleto's
 * number from the sequence). write-sale.ts writes it, in one statement or in
 * the caller's database transaction, so there is one list of what a sale
 * writes, whichever stage and whichever provider:
 *
 * - the intent CONFIRMED with its transaction (how its row is written, new,
 *   under its lock or guarded, is the writer's caller's choice);
 * - the provider's record of the charge, when our statement writes it (a
 *   provider whose record is in this database);
 * - the transaction, PENDING, priced with the seller's fee plan;
 * - `transaction.created` with its deliveries;
 * - for a card, the move decided at once: approved → PAID (receivables,
 *   `transaction.paid`), refused → FAILED (`transaction.canceled`), which the
 *   transactions module applies in the caller's transaction;
 * - the views answered and stored (the stored response), without the Pix QR
 *   image, which nothing stored holds: `drawn()` adds it.
 */
import type { Config } from '../../config.js';
import type { InsertFragment } from '../../db/one-statement.js';
import { asJsonb } from '../../db/jsonb.js';
import type { PaymentIntentRow, TransactionRow } from '../../db/types.js';
import { isDomainError, type Outcome } from '../../lib/domain-error.js';
import type { SellerProfile } from '../companies/index.js';
import { saleFeeCents, type PaymentMethod } from '../fees/index.js';
import type { ChargeRecord } from '../providers/index.js';
import { transactionView, withQrImage, type TransactionService, type TransactionView } from '../transactions/index.js';
import { boletoDetails, cardDetails, pixDetails, type BoletoDetails, type CardDetails, type PixDetails } from './payment-details.js';
import { paymentWindowEnd } from './rules.js';
import type { IntentView } from './schemas.js';
import { intentView } from './view.js';

/** What the caller answers: the transaction (POST …/confirm) or the intent holding it (create with `confirm: true`). */
export type ConfirmationShape = 'transaction' | 'intent';
export type ConfirmationResult = { transaction: TransactionView; intent: IntentView };

export interface Sale {
  /** The intent as the sale leaves it: CONFIRMED, holding its transaction's id. */
  intent: PaymentIntentRow;
  /** The transaction as inserted, PENDING, as it will read back (jsonb members in PostgreSQL's order: db/jsonb.ts). */
  transaction: TransactionRow;
  /** The provider's record of the charge, when our statement writes it. */
  providerRecord: InsertFragment | undefined;
  /** `transaction.created` and its deliveries. */
  created: InsertFragment[];
  /** A card's move at once (approved: PAID, refused: FAILED); none for Pix and boleto, which stay PENDING. */
  move: 'PAID' | 'FAILED' | undefined;
  /** The views of the PENDING transaction and its intent, without the Pix QR image. */
  views: ConfirmationResult;
  /** The confirmation's time: the rows' updated_at and created_at, the event's. */
  at: Date;
}

/** What a sale is computed from: the claimed intent, the provider's answer and what was read for it. */
export interface SaleInput {
  intent: PaymentIntentRow;
  record: ChargeRecord;
  seller: SellerProfile;
  now: Date;
  /** The "nosso número" of a boleto we number (the provider issued none), taken from the sequence. */
  boletoNumber?: number | undefined;
  /** The provider's record, when our statement writes it (PaymentProvider.registration). */
  providerRecord?: InsertFragment | undefined;
}

/** The parts of the service a sale is computed with: the Pix code's merchant data, the events' INSERTs (and their ids). */
export interface SaleContext {
  config: Pick<Config, 'pixLocationBase' | 'pixMerchantCity'>;
  transactions: Pick<TransactionService, 'createdQueries'>;
}

export function saleOf(ctx: SaleContext, input: SaleInput): Sale {
  const { intent, record, seller, now } = input;
  const transactionId = transactionIdOf(intent);
  const confirmed: PaymentIntentRow = { ...intent, status: 'CONFIRMED', transaction_id: transactionId, updated_at: now };
  const row = newTransactionRow(confirmed, seller, detailsOf(ctx, input, transactionId), now);
  const transaction = transactionView(row, seller.name, [], false);
  const views = { transaction, intent: intentView(confirmed, now, transaction) };
  const move = intent.payment_method === 'CREDIT_CARD' ? (record.approved ? 'PAID' : 'FAILED') : undefined;
  return { intent: confirmed, transaction: row, providerRecord: input.providerRecord, created: ctx.transactions.createdQueries(transaction, now), move, views, at: now };
}

/** What the buyer pays with: the Pix code (the provider's, else ours), the card's brand and last digits, the boleto (the provider's, else ours). */
function detailsOf(ctx: SaleContext, input: SaleInput, transactionId: string): PixDetails | CardDetails | BoletoDetails {
  const { intent, record, seller, now } = input;
  switch (intent.payment_method) {
    case 'PIX':
      return pixDetails({
        issuedCode: record.pix?.qrCode,
        locationBase: ctx.config.pixLocationBase,
        transactionId,
        amountCents: intent.amount_cents,
        merchantName: seller.name,
        merchantCity: ctx.config.pixMerchantCity,
        expiresAt: paymentWindowEnd('PIX', now, intent.pix_expires_in_seconds, null)!,
      });
    case 'CREDIT_CARD':
      return cardDetails(record);
    default:
      if (record.boleto) return { boleto: { ...record.boleto, dueDate: intent.boleto_due_date! } };
      if (input.boletoNumber === undefined) throw new Error(`sale of ${intent.id}: a boleto we number needs its number`);
      return boletoDetails(input.boletoNumber, intent.amount_cents, intent.boleto_due_date!);
  }
}

/**
 * The id of the transaction a confirmation makes: reserved when it was
 * claimed, so a retry sends the provider the same key. Intents claimed
 * before the reservation existed get one derived from the intent id.
 */
export function transactionIdOf(intent: PaymentIntentRow): string {
  return intent.reserved_transaction_id ?? `trx_${intent.id.slice('pi_'.length)}`;
}

/** The PENDING transaction of a CONFIRMED intent, priced with the seller's fee plan, as it will read back. */
function newTransactionRow(intent: PaymentIntentRow, seller: SellerProfile, details: PixDetails | CardDetails | BoletoDetails, now: Date): TransactionRow {
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

/** The views with the Pix QR image drawn into their transaction (the intent view holds the same transaction view). */
export function withImageDrawn(out: ConfirmationResult): ConfirmationResult {
  const paymentDetails = withQrImage(out.transaction.paymentDetails);
  if (paymentDetails === out.transaction.paymentDetails) return out;
  const transaction = { ...out.transaction, paymentDetails };
  return { transaction, intent: { ...out.intent, transaction } };
}

/** The views of a card sale after its move (the transaction's view read back with its receivables). */
export function afterMove(sale: Sale, transaction: TransactionView): ConfirmationResult {
  return { transaction, intent: intentView(sale.intent, sale.at, transaction) };
}

/** The part of a confirmation the caller answers with. */
export function answerOf<S extends ConfirmationShape>(outcome: Outcome<ConfirmationResult>, shape: S): Outcome<ConfirmationResult[S]> {
  return isDomainError(outcome) ? outcome : outcome[shape];
}
