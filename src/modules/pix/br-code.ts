/**
 * Pix BR Code for dynamic charges ("Pix Cobrança"): the payload behind the QR
 * code and the "Pix Copia e Cola" string.
 *
 * Layout follows the BCB "Manual de Padrões para Iniciação do Pix", which
 * profiles the EMV QRCPS Merchant-Presented Mode: a flat list of TLV objects,
 * each `ID (2 digits) + length (2 decimal digits) + value`, ending in a CRC.
 * A dynamic code carries no Pix key: field 26/25 points to a location on the
 * PSP's server (host + path, no scheme; the payer's app adds "https://") where
 * the signed charge (JWS) is fetched.
 */
import { crc16CcittFalse } from '../../lib/crc16.js';
import { centsToDecimal, MAX_AMOUNT_CENTS } from '../../lib/money.js';

export interface DynamicBrCodeInput {
  /** Charge location without scheme, e.g. `pix.example.com/qr/v2/<id>`. */
  locationUrl: string;
  amountCents: number;
  merchantName: string;
  merchantCity: string;
}

/** Field 26 GUI that identifies the Pix arrangement (manual, section on field 26). */
export const PIX_GUI = 'br.gov.bcb.pix';

/**
 * Field 26 holds `00 14 br.gov.bcb.pix` (18 chars) + `25 LL <url>` (4 + url);
 * the template itself is capped at 99, which leaves 77 for the URL.
 */
export const MAX_LOCATION_LENGTH = 77;
const MAX_NAME_LENGTH = 25; // field 59, EMV limit
const MAX_CITY_LENGTH = 15; // field 60, EMV limit
const FALLBACK_MERCHANT_NAME = 'SVC PAGAMENTOS';

/**
 * Encodes one TLV object. Lengths are two decimal digits, so a value may hold
 * at most 99 characters. Every value we emit is ASCII, so characters = bytes.
 */
function tlv(id: string, value: string): string {
  if (value.length === 0 || value.length > 99) {
    throw new Error(`BR Code field ${id}: length ${value.length} is outside 1..99`);
  }
  return `${id}${value.length.toString().padStart(2, '0')}${value}`;
}

/**
 * Names and cities go through many payer apps and printers, so they are kept
 * to a conservative character set: accents stripped (NFD then drop combining
 * marks, so "José Ávila" -> "JOSE AVILA"), uppercase, A-Z 0-9 space and a few
 * punctuation marks, spaces collapsed, cut to the EMV maximum.
 */
export function normalizeMerchantText(text: string, maxLength: number): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9 .,&/-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, maxLength)
    .trim(); // the cut may leave a trailing space
}

function checkLocation(locationUrl: string): void {
  // The manual says the URL goes without "https://"; a scheme here would make
  // the payer's app request "https://https://...".
  // ("host:port/path" is fine: only "://" or a leading "//" is a scheme.)
  if (locationUrl.includes('://') || locationUrl.startsWith('//')) {
    throw new Error('Pix location URL must not include a scheme');
  }
  if (locationUrl.length === 0 || locationUrl.length > MAX_LOCATION_LENGTH) {
    throw new Error(`Pix location URL must have 1..${MAX_LOCATION_LENGTH} characters`);
  }
  // Printable ASCII without spaces: keeps TLV lengths equal to byte counts.
  if (!/^[\x21-\x7e]+$/.test(locationUrl)) {
    throw new Error('Pix location URL must be printable ASCII without spaces');
  }
}

/** Builds the BR Code ("Pix Copia e Cola") string of a dynamic Pix charge. */
export function buildDynamicBrCode(input: DynamicBrCodeInput): string {
  checkLocation(input.locationUrl);
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents < 1 || input.amountCents > MAX_AMOUNT_CENTS) {
    throw new Error(`Pix amount must be an integer number of centavos in 1..${MAX_AMOUNT_CENTS}`);
  }
  const name = normalizeMerchantText(input.merchantName, MAX_NAME_LENGTH) || FALLBACK_MERCHANT_NAME;
  const city = normalizeMerchantText(input.merchantCity, MAX_CITY_LENGTH);
  if (city.length === 0) {
    // Field 60 is mandatory and there is no sensible default city.
    throw new Error('Pix merchant city is empty after normalization');
  }

  const payload =
    tlv('00', '01') + // Payload Format Indicator
    tlv('01', '12') + // Point of Initiation Method: 12 = single use (dynamic charge)
    tlv('26', tlv('00', PIX_GUI) + tlv('25', input.locationUrl)) + // Merchant Account Information
    tlv('52', '0000') + // Merchant Category Code: "0000" when not informed (manual)
    tlv('53', '986') + // Transaction Currency: ISO 4217 BRL
    tlv('54', centsToDecimal(input.amountCents)) + // Transaction Amount, "." decimal separator
    tlv('58', 'BR') + // Country Code
    tlv('59', name) + // Merchant Name
    tlv('60', city) + // Merchant City
    // Additional Data Field Template. For codes with field 25 the manual
    // mandates txid (05) = "***": the real txid comes from the location payload.
    tlv('62', tlv('05', '***'));

  // The CRC covers everything before it, including its own ID and length "6304".
  const withCrcHeader = `${payload}6304`;
  return withCrcHeader + crc16CcittFalse(withCrcHeader);
}

/**
 * Splits a TLV string (the whole code, or the value of a template such as 26
 * or 62) into ID -> value. Throws on truncated or malformed input and on
 * repeated IDs, which the EMV spec does not allow at one level.
 */
export function parseTlv(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  let pos = 0;
  while (pos < text.length) {
    const id = text.slice(pos, pos + 2);
    const lengthText = text.slice(pos + 2, pos + 4);
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(lengthText)) {
      throw new Error(`Malformed TLV at position ${pos}`);
    }
    const length = Number(lengthText);
    const start = pos + 4;
    if (length === 0 || start + length > text.length) {
      throw new Error(`Bad length ${lengthText} for TLV ${id} at position ${pos}`);
    }
    if (fields.has(id)) throw new Error(`Repeated TLV ${id}`);
    fields.set(id, text.slice(start, start + length));
    pos = start + length;
  }
  return fields;
}

/**
 * Parses a BR Code's top-level fields and verifies it the way a payer's app
 * does: it must start with 00 = "01" and end with a 63 (CRC) field whose value
 * is the CRC16 of everything before it, "6304" included. The CRC must be
 * uppercase hex, as in the manual's examples and in what we emit, so that a
 * case change in it is not silently accepted.
 */
export function parseBrCode(code: string): Map<string, string> {
  const fields = parseTlv(code);
  if (!code.startsWith('000201')) {
    throw new Error('BR Code must start with Payload Format Indicator 00 = "01"');
  }
  // Maps keep insertion order, so the last key is the last object in the code.
  const lastId = [...fields.keys()].at(-1);
  const crc = fields.get('63');
  if (lastId !== '63' || crc === undefined || !/^[0-9A-F]{4}$/.test(crc)) {
    throw new Error('BR Code must end with the CRC field 63 (4 uppercase hex digits)');
  }
  const expected = crc16CcittFalse(code.slice(0, -4));
  if (crc !== expected) {
    throw new Error('BR Code CRC mismatch');
  }
  return fields;
}

/** Location URL of a charge: `${base}/${id}`, base being host + path without scheme. */
export function pixLocationUrl(base: string, id: string): string {
  return `${base.replace(/\/+$/, '')}/${id}`;
}
