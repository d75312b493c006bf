/**
 * What the buyer pays with, as the transaction stores it: the Pix BR Code,
 * the boleto barcode and digitable line, or the card's brand and last 4
 * digits. The Pix QR image is not stored: it is a pure function of the code,
 * drawn by the transaction's view (transactions/view.ts). The boleto number
 * comes from a database sequence (repo.nextBoletoNumber), taken inside the transaction.
 */
import type { ChargeRecord } from '../providers/index.js';
import { buildBoleto, sandboxFreeField } from '../boleto/index.js';
import { buildDynamicBrCode, pixLocationUrl } from '../pix/index.js';

/** Bank code printed on sandbox boletos (a test issuer; no money moves in the sandbox). */
const SANDBOX_BOLETO_BANK = '001';

export interface PixDetails {
  pix: { qrCode: string; expiresAt: string };
}
export interface CardDetails {
  card: { brand: string; last4: string; refusalCode?: string; refusalMessage?: string };
}
export interface BoletoDetails {
  /** `url`: the printable boleto, when a provider issued it. */
  boleto: { digitableLine: string; barcode: string; dueDate: string; url?: string };
}

export function pixDetails(input: {
  /** The code the provider issued (its location is the PSP's); absent: built here (sandbox). */
  issuedCode?: string | undefined;
  locationBase: string;
  transactionId: string;
  amountCents: number;
  merchantName: string;
  merchantCity: string;
  expiresAt: Date;
}): PixDetails {
  const qrCode = input.issuedCode ?? buildDynamicBrCode({
    locationUrl: pixLocationUrl(input.locationBase, input.transactionId),
    amountCents: input.amountCents,
    merchantName: input.merchantName,
    merchantCity: input.merchantCity,
  });
  return { pix: { qrCode, expiresAt: input.expiresAt.toISOString() } };
}

/** What a card transaction shows of the card and of a refusal; never more of the card. */
export function cardDetails(record: ChargeRecord): CardDetails {
  const card = { brand: record.card?.brand ?? 'unknown', last4: record.card?.last4 ?? '' };
  return record.approved
    ? { card }
    : { card: { ...card, refusalCode: record.refusalCode ?? 'refused', refusalMessage: record.refusalMessage ?? 'The issuer refused the payment.' } };
}

export function boletoDetails(ourNumber: number, amountCents: number, dueDate: string): BoletoDetails {
  const { barcode, digitableLine } = buildBoleto({ bankCode: SANDBOX_BOLETO_BANK, amountCents, dueDate, freeField: sandboxFreeField(ourNumber) });
  return { boleto: { digitableLine, barcode, dueDate } };
}
