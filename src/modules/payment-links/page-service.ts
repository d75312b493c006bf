/**
 * Payment links, the buyer's side: what the hosted page (GET /pay/{id})
 * shows and the payments it starts, on behalf of the seller but without the
 * seller's key. Every payment is an ordinary intent of the seller, created
 * here with the link's amount, description, split rules and metadata and
 * named after the link (`paymentLinkId`); its confirmation goes through the
 * intents module, whose claim calls the slot guard (slots.ts) under the
 * link's lock, so the page, the seller's key and any number of buyers at
 * once are held to `maxPayments` alike.
 *
 * Only sales of the link are ever visible here: an intent or a transaction of
 * another link or of none is 404, and the page sees a narrow view of a sale
 * (its state and how to pay it), never the seller's or the buyer's data.
 */
import type { Db } from '../../db/database.js';
import type { PaymentLinkRow } from '../../db/types.js';
import type { Clock } from '../../lib/clock.js';
import { isDomainError, notFound, validationFailure, type ErrorDetail, type Outcome } from '../../lib/domain-error.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import { isId } from '../../lib/ids.js';
import { sellerProfile } from '../companies/index.js';
import { unstoredRecorder } from '../idempotency/index.js';
import type { CreateIntentInput, PaymentIntentService } from '../payment-intents/index.js';
import { companyOfTransaction, type TransactionService, type TransactionView } from '../transactions/index.js';
import { receiptOf, receiptPath, type Receipt, type ReceiptTokens } from './receipt.js';
import * as repo from './repo.js';
import { linkStatus } from './rules.js';
import type { LinkStatus, PageCharge, PagePayInput, PagePayment } from './schemas.js';
import { linkNotFound } from './service.js';
import { paidCountOf, refusalOf } from './slots.js';
import { linkState } from './view.js';

export interface PageDeps {
  db: Db;
  clock: Clock;
  intents: PaymentIntentService;
  transactions: TransactionService;
  /** The receipts' tokens (receipt.ts) and the origin their addresses are under. */
  receipts: ReceiptTokens;
  publicApiUrl: string;
}

/** What the page shows before any payment. */
export interface PageInfo {
  link: PaymentLinkRow;
  sellerName: string;
  status: LinkStatus;
}

function pagePayment(t: TransactionView): PagePayment {
  const d = t.paymentDetails;
  return {
    transactionId: t.id,
    status: t.status,
    paymentMethod: t.paymentMethod,
    amountCents: t.amountCents,
    installments: t.installments,
    ...(d.pix ? { pix: d.pix } : {}),
    ...(d.boleto ? { boleto: d.boleto } : {}),
    ...(d.card ? { card: d.card } : {}),
  };
}

export class PaymentPageService {
  constructor(private readonly deps: PageDeps) {}

  private async findLink(id: string): Promise<PaymentLinkRow | undefined> {
    return isId('plink', id) ? repo.findPublicLink(this.deps.db, id) : undefined;
  }

  async info(id: string): Promise<Outcome<PageInfo>> {
    const link = await this.findLink(id);
    if (!link) return linkNotFound();
    const [seller, paid] = await Promise.all([sellerProfile(this.deps.db, link.company_id), paidCountOf(this.deps.db, link)]);
    return { link, sellerName: seller.name, status: linkStatus(linkState(link), paid, this.deps.clock.now()) };
  }

  /**
   * The buyer pays: a card intent to tokenize for, or a Pix / boleto charge
   * confirmed at once. A link that takes no more payments is refused here
   * already (409 PAYMENT_LINK_UNAVAILABLE), so no buyer types a card for
   * nothing; the decisive check is the confirmation's, under the lock.
   */
  async pay(id: string, input: PagePayInput): Promise<Outcome<PageCharge>> {
    const link = await this.findLink(id);
    if (!link) return linkNotFound();
    const refused = await refusalOf(this.deps.db, link, this.deps.clock.now());
    if (refused) return refused;
    const problems = choiceProblems(link, input);
    if (problems.length > 0) return validationFailure(problems);
    const intent = await this.deps.intents.create(link.company_id, intentInput(link, input), undefined, link.id);
    if (isDomainError(intent)) return intent;
    if (intent.cardTokenization) return { intentId: intent.id, cardTokenization: intent.cardTokenization };
    const transaction = await this.deps.intents.confirm(link.company_id, intent.id, undefined, unstoredRecorder('plink'));
    if (isDomainError(transaction)) return transaction;
    return { intentId: intent.id, payment: pagePayment(transaction) };
  }

  /** The card's token from the vault's frame confirms the link's card intent. */
  async confirmCard(id: string, intentId: string, token: string): Promise<Outcome<PagePayment>> {
    const link = await this.findLink(id);
    if (!link) return linkNotFound();
    const intent = await this.deps.intents.get(link.company_id, intentId);
    if (isDomainError(intent) || intent.paymentLinkId !== link.id) return notFound('paymentIntent');
    const transaction = await this.deps.intents.confirm(link.company_id, intent.id, token, unstoredRecorder('plink'));
    return isDomainError(transaction) ? transaction : pagePayment(transaction);
  }

  /** A sale of the link, as the page polls it (a Pix turning PAID). */
  async payment(id: string, transactionId: string): Promise<Outcome<PagePayment>> {
    const link = await this.findLink(id);
    if (!link) return linkNotFound();
    const transaction = await this.deps.transactions.get(link.company_id, transactionId);
    if (isDomainError(transaction) || transaction.paymentLinkId !== link.id) return notFound('transaction');
    return pagePayment(transaction);
  }

  /**
   * The sandbox's "Simular pagamento" on the hosted page: pays a pending Pix
   * or boleto of this link, as the demo checkout's does for its own sales
   * (the routes exist only when SVC_ENV is sandbox).
   */
  async simulatePayment(id: string, transactionId: string): Promise<Outcome<PagePayment>> {
    const link = await this.findLink(id);
    if (!link) return linkNotFound();
    const transaction = await this.deps.transactions.get(link.company_id, transactionId);
    if (isDomainError(transaction) || transaction.paymentLinkId !== link.id) return notFound('transaction');
    const paid = await this.deps.transactions.settleInSandbox(link.company_id, transaction.id, 'PAID');
    return isDomainError(paid) ? paid : pagePayment(paid);
  }

  /** The address of a paid sale's receipt, as the hosted page links to it after the payment; 404 before. */
  async paymentReceipt(id: string, transactionId: string): Promise<Outcome<{ url: string }>> {
    const link = await this.findLink(id);
    if (!link) return linkNotFound();
    const transaction = await this.deps.transactions.get(link.company_id, transactionId);
    if (isDomainError(transaction) || transaction.paymentLinkId !== link.id || !transaction.paidAt) return notFound('transaction');
    return { url: this.receiptUrl(link.company_id, transaction.id) };
  }

  /** A sale's receipt for the seller's people (the dashboard's session decides who), with the address to send. */
  async sellerReceipt(companyId: string, transactionId: string): Promise<Outcome<ReceiptWithUrl>> {
    const transaction = await this.deps.transactions.get(companyId, transactionId);
    if (isDomainError(transaction)) return transaction;
    const receipt = await this.receiptOf(transaction);
    return receipt ? { receipt, url: this.receiptUrl(companyId, transaction.id) } : notFound('transaction');
  }

  /** The public receipt: a wrong token, an unknown sale and an unpaid one are the same 404. */
  async publicReceipt(transactionId: string, token: string): Promise<Outcome<ReceiptWithUrl>> {
    const companyId = isId('trx', transactionId) ? await companyOfTransaction(this.deps.db, transactionId) : undefined;
    if (!companyId || !this.deps.receipts.check(companyId, transactionId, token)) return notFound('transaction');
    return this.sellerReceipt(companyId, transactionId);
  }

  private receiptUrl(companyId: string, transactionId: string): string {
    return new URL(receiptPath(transactionId, this.deps.receipts.issue(companyId, transactionId)), this.deps.publicApiUrl).toString();
  }

  private async receiptOf(transaction: TransactionView): Promise<Receipt | undefined> {
    if (!transaction.paidAt) return undefined;
    const seller = await sellerProfile(this.deps.db, transaction.sellerId);
    return receiptOf(transaction, seller.document);
  }
}

/** What the receipt's routes answer: the receipt and the address that opens it without a session. */
export interface ReceiptWithUrl {
  receipt: Receipt;
  url: string;
}

/** The buyer's choices the link does not allow. */
function choiceProblems(link: PaymentLinkRow, input: PagePayInput): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (!(link.payment_methods as string[]).includes(input.paymentMethod)) {
    problems.push({ field: 'paymentMethod', message: PROBLEMS.oneOf({ values: (link.payment_methods as string[]).join(', ') }) });
  }
  if (input.installments !== undefined && input.installments > link.max_installments) {
    problems.push({ field: 'installments', message: PROBLEMS.maximum({ limit: link.max_installments }) });
  }
  return problems;
}

/** The intent of one payment: the link fixes everything but the buyer, the method and the installments. */
function intentInput(link: PaymentLinkRow, input: PagePayInput): CreateIntentInput {
  return {
    amountCents: link.amount_cents,
    paymentMethod: input.paymentMethod,
    referenceId: link.reference_id ?? link.id,
    description: link.description,
    buyer: input.buyer,
    ...(input.installments !== undefined ? { installments: input.installments } : {}),
    ...(link.split_rules ? { splitRules: link.split_rules as CreateIntentInput['splitRules'] } : {}),
    ...(link.metadata ? { metadata: link.metadata } : {}),
  };
}
