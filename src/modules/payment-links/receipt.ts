/**
 * A paid sale's receipt (comprovante), public at an unguessable address:
 * /pay/receipts/{trx}/{token}, the token an HMAC of the company and the sale
 * under a key derived from INTERNAL_KEY (no state to store, the same on every
 * API process, never expiring: a receipt is kept). Only who was given the
 * address opens it: the buyer's hosted page shows it after the payment, and
 * the seller's people get it on the sale's Comprovante page (a session with
 * `sales.read`). Any other address, a wrong token or an unpaid sale is the
 * same 404. The receipt holds what a buyer's proof of payment needs and no
 * more: the buyer's document masked, no e-mail, no address.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { TransactionView } from '../transactions/index.js';

const TOKEN = /^[A-Za-z0-9_-]{32}$/;

export class ReceiptTokens {
  private readonly key: Buffer;

  constructor(internalKey: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', internalKey, Buffer.alloc(0), 'svc-pay-page/receipt', 32));
  }

  /** 192 bits of the HMAC, base64url (32 characters). */
  issue(companyId: string, transactionId: string): string {
    return createHmac('sha256', this.key).update(`${companyId}.${transactionId}`).digest().subarray(0, 24).toString('base64url');
  }

  check(companyId: string, transactionId: string, token: string): boolean {
    if (!TOKEN.test(token)) return false;
    return timingSafeEqual(Buffer.from(token, 'base64url'), Buffer.from(this.issue(companyId, transactionId), 'base64url'));
  }
}

/** The receipt's path under PUBLIC_API_URL. */
export const receiptPath = (transactionId: string, token: string): string => `/pay/receipts/${encodeURIComponent(transactionId)}/${token}`;

export interface Receipt {
  transactionId: string;
  amountCents: number;
  paymentMethod: TransactionView['paymentMethod'];
  installments: number;
  card?: { brand: string; last4: string };
  paidAt: string;
  sellerName: string;
  sellerDocument: string;
  description?: string;
  buyerName: string;
  /** CPF `***.456.789-**`, CNPJ with its first and last groups hidden. */
  buyerDocument: string;
  /** What was refunded since (the receipt is of the payment; the refund is said beside it). */
  refundedCents: number;
}

/** A CPF or CNPJ with only its middle digits shown, as Brazilian receipts print it. */
function maskedDocument(document: string): string {
  if (/^\d{11}$/.test(document)) return `***.${document.slice(3, 6)}.${document.slice(6, 9)}-**`;
  if (/^[0-9A-Z]{14}$/.test(document)) return `**.${document.slice(2, 5)}.${document.slice(5, 8)}/****-**`;
  return '***';
}

/** The receipt of a paid sale; undefined for a sale that was never paid. */
export function receiptOf(t: TransactionView, sellerDocument: string): Receipt | undefined {
  if (!t.paidAt) return undefined;
  const card = t.paymentDetails.card;
  return {
    transactionId: t.id,
    amountCents: t.amountCents,
    paymentMethod: t.paymentMethod,
    installments: t.installments,
    ...(card ? { card: { brand: card.brand, last4: card.last4 } } : {}),
    paidAt: t.paidAt,
    sellerName: t.sellerName,
    sellerDocument,
    ...(t.description !== undefined ? { description: t.description } : {}),
    buyerName: t.buyer.name,
    buyerDocument: maskedDocument(t.buyer.document),
    refundedCents: t.refundedCents,
  };
}
