/**
 * What the buyer pays with: the Pix BR Code and its QR image, or the boleto
 * barcode and digitable line. The QR image is rendered before the database
 * transaction opens (CPU work holds no row lock); the boleto number comes
 * from a database sequence, so it is taken inside the transaction.
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/types.js';
import { buildBoleto, sandboxFreeField } from '../boleto/index.js';
import { buildDynamicBrCode, pixLocationUrl, qrCodePngBase64 } from '../pix/index.js';

/** Bank code printed on sandbox boletos (a test issuer; no money moves in the sandbox). */
export const SANDBOX_BOLETO_BANK = '001';

export interface PixDetails {
  pix: { qrCode: string; qrCodeImageBase64: string; expiresAt: string };
}
export interface BoletoDetails {
  boleto: { digitableLine: string; barcode: string; dueDate: string };
}

export async function pixDetails(input: {
  locationBase: string;
  transactionId: string;
  amountCents: number;
  merchantName: string;
  merchantCity: string;
  expiresAt: Date;
}): Promise<PixDetails> {
  const qrCode = buildDynamicBrCode({
    locationUrl: pixLocationUrl(input.locationBase, input.transactionId),
    amountCents: input.amountCents,
    merchantName: input.merchantName,
    merchantCity: input.merchantCity,
  });
  return { pix: { qrCode, qrCodeImageBase64: await qrCodePngBase64(qrCode), expiresAt: input.expiresAt.toISOString() } };
}

export async function boletoDetails(ex: Kysely<Database>, amountCents: number, dueDate: string): Promise<BoletoDetails> {
  const { rows } = await sql<{ n: number }>`SELECT nextval('boleto_number_seq')::int8 AS n`.execute(ex);
  const ourNumber = Number(rows[0]!.n);
  const { barcode, digitableLine } = buildBoleto({ bankCode: SANDBOX_BOLETO_BANK, amountCents, dueDate, freeField: sandboxFreeField(ourNumber) });
  return { boleto: { digitableLine, barcode, dueDate } };
}
