/**
 * Pure conversions between our records and the API Pix (BCB standard v2)
 * shapes. Money is integer centavos on our side and a decimal string with two
 * places on the PSP's ("12.34"): converted through the digits, never through
 * floating point (lib/money.ts).
 */
import { decimalToCents } from '../../../lib/money.js';

/** The API Pix txid of a cob: 26 to 35 letters and digits (schema TxId, anchored as the standard means it). */
export const TXID_PATTERN = /^[a-zA-Z0-9]{26,35}$/;
/** An endToEndId: 32 letters and digits (schema EndToEndId). */
export const E2EID_PATTERN = /^[a-zA-Z0-9]{32}$/;
/** A devolução id (schema DevolucaoId). */
export const DEVOLUCAO_ID_PATTERN = /^[a-zA-Z0-9]{1,35}$/;

/**
 * The txid of a transaction: its id without the underscore (`trx_01jd…` →
 * `trx01jd…`, 29 characters). Derived, not generated, so every retry of one
 * confirmation sends the same txid and the PSP never holds two cobs for it.
 */
export function txidOf(transactionId: string): string {
  const txid = transactionId.replace(/_/g, '');
  if (!TXID_PATTERN.test(txid)) throw new Error(`transaction id ${transactionId} does not make an API Pix txid (26 to 35 letters and digits)`);
  return txid;
}

/** The devolução id of a refund: our refund id with only its letters and digits, the PSP's key for a retry. */
export function devolucaoIdOf(refundId: string): string {
  const id = refundId.replace(/[^a-zA-Z0-9]/g, '');
  if (!DEVOLUCAO_ID_PATTERN.test(id)) throw new Error(`refund id ${refundId} does not make an API Pix devolução id (1 to 35 letters and digits)`);
  return id;
}

export type Devedor = { cpf: string; nome: string } | { cnpj: string; nome: string };

/** The cob's `devedor`: CPF (11 digits) or CNPJ (14 characters, alphanumeric since 2026), punctuation removed. */
export function devedorOf(document: string, name: string): Devedor {
  const doc = document.replace(/[.\-/\s]/g, '').toUpperCase();
  const nome = Array.from(name.trim()).slice(0, 200).join('');
  if (/^\d{11}$/.test(doc)) return { cpf: doc, nome };
  if (/^[0-9A-Z]{14}$/.test(doc)) return { cnpj: doc, nome };
  throw new Error('buyer document is neither a CPF (11 digits) nor a CNPJ (14 characters)');
}

/** Cuts text to `max` characters (code points), for fields such as `solicitacaoPagador` (140). */
export const cut = (text: string, max: number): string => Array.from(text).slice(0, max).join('');

/** A date as RFC 3339 for the query parameters `inicio` / `fim`. */
export const rfc3339 = (at: Date): string => at.toISOString();

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
export { isRecord };

/** A Pix as the API answers it (schema Pix), reduced to what we read. */
export interface PixReceived {
  endToEndId: string;
  txid?: string;
  amountCents: number;
  paidAt: Date;
}

/** Reads one Pix (schema Pix); undefined when it lacks what the schema requires. */
export function parsePix(value: unknown): PixReceived | undefined {
  if (!isRecord(value)) return undefined;
  const { endToEndId, txid, valor, horario } = value;
  if (typeof endToEndId !== 'string' || !E2EID_PATTERN.test(endToEndId)) return undefined;
  if (typeof valor !== 'string' || typeof horario !== 'string') return undefined;
  const amountCents = decimalToCents(valor);
  const paidAt = new Date(horario);
  if (amountCents === undefined || Number.isNaN(paidAt.getTime())) return undefined;
  return { endToEndId, txid: typeof txid === 'string' ? txid : undefined, amountCents, paidAt };
}

/** A cob as the API answers it (schema CobCompleta), reduced to what we read. */
export interface Cob {
  txid: string;
  status: string;
  original: string;
  pixCopiaECola?: string;
  pix: PixReceived[];
}

export function parseCob(value: unknown): Cob | undefined {
  if (!isRecord(value)) return undefined;
  const { txid, status, valor, pixCopiaECola, pix } = value;
  if (typeof txid !== 'string' || typeof status !== 'string' || !isRecord(valor) || typeof valor.original !== 'string') return undefined;
  const received = Array.isArray(pix) ? pix.map(parsePix).filter((p): p is PixReceived => p !== undefined) : [];
  return { txid, status, original: valor.original, pixCopiaECola: typeof pixCopiaECola === 'string' ? pixCopiaECola : undefined, pix: received };
}

/**
 * The endToEndIds a webhook notification claims (`{"pix":[{endToEndId,…}]}`),
 * undefined when the body is not one. Only the ids are taken: the rest is
 * read from the PSP.
 */
export function claimedEndToEndIds(body: unknown): string[] | undefined {
  if (!isRecord(body) || !Array.isArray(body.pix) || body.pix.length === 0) return undefined;
  const ids: string[] = [];
  for (const item of body.pix) {
    if (!isRecord(item) || typeof item.endToEndId !== 'string' || !E2EID_PATTERN.test(item.endToEndId)) return undefined;
    if (!ids.includes(item.endToEndId)) ids.push(item.endToEndId);
  }
  return ids;
}

/** A PSP error (application/problem+json) as one line: its title and detail, nothing else. */
export function problemText(status: number, body: unknown): string {
  if (isRecord(body)) {
    const title = typeof body.title === 'string' ? body.title : undefined;
    const detail = typeof body.detail === 'string' ? body.detail : undefined;
    const text = [title, detail].filter(Boolean).join(': ');
    if (text) return `${status} ${cut(text, 300)}`;
  }
  return `${status}`;
}
