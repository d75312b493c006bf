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

/**
 * `drawImage: false` leaves the Pix QR image out (the stored form, see
 * storedViewForm): a sale draws it while PostgreSQL writes the sale
 * (payment-intents/write-sale.ts).
 */
export function transactionView(row: TransactionRow, sellerName: string, receivables: ReceivableView[] = [], drawImage = true): TransactionView {
  const details = row.payment_details as TransactionView['paymentDetails'];
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
    paymentDetails: drawImage ? withQrImage(details) : details,
    split: { receivables },
    metadata: row.metadata ?? {},
    createdAt: row.created_at.toISOString(),
    paidAt: row.paid_at?.toISOString() ?? null,
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

/** Where a stored text holds a transaction: a transaction view, a payment intent view (`transaction`), an event (`data.transaction`). */
type Holder = { paymentDetails?: TransactionView['paymentDetails']; transaction?: Holder; data?: Holder };
const transactionsHeldBy = (root: Holder): Holder[] => [root, root.transaction, root.data?.transaction].filter((t): t is Holder => typeof t === 'object' && t !== null);

/**
 * The text of a stored view or event with each Pix QR image drawn back in,
 * last in its `pix` object, where withQrImage puts it: parsing and
 * serialising JSON.stringify's own text gives back the same bytes, the image
 * added. A text with no image to draw (no Pix details, or stored with its
 * image before images were left out) is answered as it is.
 */
export function withQrImagesDrawn(stored: string): string {
  if (!stored.includes('"pix":{')) return stored; // no Pix details (a seller's text has its quotes escaped)
  const root = JSON.parse(stored) as Holder;
  let drawn = false;
  for (const transaction of transactionsHeldBy(root)) {
    const details = transaction.paymentDetails && withQrImage(transaction.paymentDetails);
    if (details === transaction.paymentDetails) continue;
    transaction.paymentDetails = details;
    drawn = true;
  }
  return drawn ? JSON.stringify(root) : stored;
}

/**
 * A view as an Idempotency-Key stores it (idempotency/rules.ts, StoredForm):
 * without the Pix QR image of the transaction it is or holds, a kilobyte of
 * base64 that is a pure function of the code beside it; a replay draws it
 * again (withQrImagesDrawn), so it sends the first answer's bytes.
 */
export const storedViewForm = {
  compact: (view: object): object => withoutQrImages(view as Holder),
  expand: withQrImagesDrawn,
};

/** `view` less the Pix QR image of the transaction it is or holds; the same object when it has none. */
function withoutQrImages(view: Holder): Holder {
  const details = view.paymentDetails && withoutQrImage(view.paymentDetails);
  if (details !== view.paymentDetails) return { ...view, paymentDetails: details };
  const held = view.transaction && withoutQrImages(view.transaction);
  return held === view.transaction ? view : { ...view, transaction: held };
}
