/**
 * The transaction as the API shows it (GET /v2/transactions/{id}), which is
 * also the snapshot carried in webhook `data.transaction`. Keys are written in
 * a fixed order so the same state always serialises to the same bytes.
 *
 * A Pix transaction stores its code, not the code's QR image (a pure function
 * of it, drawn again here; rows written before that keep theirs): the image
 * is `qrCodeImageBase64`, after `expiresAt`, where PostgreSQL's jsonb order
 * put it when it was stored.
 */
import type { Static } from 'typebox';
import type { TransactionRow } from '../../db/types.js';
import { qrCodePngBase64 } from '../pix/index.js';
import type { ReceivableSchema, TransactionSchema } from './schemas.js';

export type TransactionView = Static<typeof TransactionSchema>;
export type ReceivableView = Static<typeof ReceivableSchema>;

export function transactionView(row: TransactionRow, sellerName: string, receivables: ReceivableView[] = []): TransactionView {
  return {
    id: row.id,
    status: row.status as TransactionView['status'],
    paymentMethod: row.payment_method as TransactionView['paymentMethod'],
    installments: row.installments,
    amountCents: row.amount_cents,
    feeCents: row.fee_cents,
    netAmountCents: row.net_amount_cents,
    refundedCents: row.refunded_cents,
    ...(row.charged_back_at ? { chargedBackCents: row.charged_back_cents, chargedBackAt: row.charged_back_at.toISOString() } : {}),
    currency: 'BRL',
    sellerId: row.company_id,
    sellerName,
    paymentIntentId: row.payment_intent_id,
    ...(row.payment_link_id ? { paymentLinkId: row.payment_link_id } : {}),
    referenceId: row.reference_id,
    ...(row.description !== null ? { description: row.description } : {}),
    buyer: row.buyer as TransactionView['buyer'],
    paymentDetails: withQrImage(row.payment_details as TransactionView['paymentDetails']),
    split: { receivables },
    metadata: row.metadata ?? {},
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    version: row.version,
  };
}

/** Payment details with the Pix QR image drawn from the code, when the stored details lack it; else the same object. */
export function withQrImage(details: TransactionView['paymentDetails']): TransactionView['paymentDetails'] {
  const pix = details.pix;
  if (!pix || pix.qrCodeImageBase64 !== undefined) return details;
  return { ...details, pix: { ...pix, qrCodeImageBase64: qrCodePngBase64(pix.qrCode) } };
}

/** The details as stored: without the Pix QR image, which withQrImage draws back (else the same object). */
export function withoutQrImage(details: TransactionView['paymentDetails']): TransactionView['paymentDetails'] {
  if (details.pix?.qrCodeImageBase64 === undefined) return details;
  const { qrCodeImageBase64: _drawnAgain, ...pix } = details.pix;
  // Typed as the view's details: what is stored is those less the image.
  return { ...details, pix: pix as typeof details.pix };
}

