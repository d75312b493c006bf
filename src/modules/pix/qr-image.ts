/**
 * QR code image for a BR Code, drawn on the hot path of every Pix
 * confirmation. qr-matrix.ts computes the module matrix (the `qrcode`
 * library's, module for module, at a third of its cost); the PNG is written
 * here as 1-bit grayscale (see png-1bit.ts) rather than by qrcode's renderer
 * (RGBA, every row filter) or pngjs (8-bit at least).
 *
 * Figures, median of 3,000 renders on a shared 2-core development machine:
 * a 152-character BR Code (version 6) took 3.5 ms and 1,889 bytes with the
 * former 8-bit pngjs writer and automatic mask, now 0.28 ms and 554 bytes; a
 * 189-character one (version 8) 4.4-7.0 ms and 2,169 bytes, now 0.37 ms and
 * 622 bytes (deflate level 6; level 1 and run-length matching now, below).
 * 250 random codes in the test: 615 to 777 bytes. On a 2-core Xeon, a
 * 189-character code now takes 80 µs, its matrix 25 of them (77 through
 * `qrcode`'s create). Two choices make that:
 * - Mask pattern 2 is fixed. The standard allows any of the 8 masks (the
 *   format information tells the reader which one); automatic selection only
 *   scores all 8 for readability and cost 0.75 ms of the 1.05 ms matrix.
 *   Over 400 random BR Codes mask 2 was the best-scoring one half of the time
 *   and on average the closest to the best; qr-image.test.ts decodes hundreds
 *   of random codes with two independent decoders (jsQR and zbar).
 * - Rows are 1 bit per pixel with the "Up" filter: the rows inside a module
 *   repeat the row above and filter to zeros, so deflate has little left to
 *   do: 0.05 ms at its default level, 0.02 ms as configured (DEFLATE).
 *
 * Error correction level M (~15 % recovery) balances density and robustness
 * for codes shown on screens and printed; the BCB manual leaves the level to
 * the issuer. Each module is 4 px and the quiet zone 4 modules, as the QR
 * standard asks; a page shows it larger with `image-rendering: pixelated`
 * (as web/demo/checkout.css does) to keep the edges sharp.
 */
import zlib from 'node:zlib';
import { png1BitGray, png1BitRowBytes } from './png-1bit.js';
import { isQrAlphanumeric, qrMatrix, type QrSegment } from './qr-matrix.js';

const MODULE_PX = 4; // a half byte of a 1-bit row: the row loop below counts on it
const QUIET_ZONE_MODULES = 4;
// Level 1: half the CPU of level 6 (25 of the QR's 150 µs) for about 110 more bytes per PNG. Run-length
// matching only (Z_RLE): the filtered rows are runs of one byte, which it finds without hashing every
// position, 21 µs instead of 27 a PNG for 3 % more bytes (64 codes, 2-core EPYC; the default window:
// a smaller one costs more, as deflate then slides it across the 7 KB of rows).
const DEFLATE: zlib.ZlibOptions = { level: 1, strategy: zlib.constants.Z_RLE };
/** The byte of two 4-pixel modules (bit 1 = white), by 2 × left + right (1 = dark). */
const MODULE_PAIR_BYTE = [0xff, 0xf0, 0x0f, 0x00];
const PNG_FILTER_NONE = 0;
const PNG_FILTER_UP = 2;

// Mode switches, from ISO/IEC 18004 Annex J's thresholds for versions 1 to 9 (a BR Code is version 5 to 8),
// tuned on random BR Codes (qr-image.test.ts): a digit run this long leaves byte mode for numeric…
const NUMERIC_AFTER_BYTE = 6;
// …an alphanumeric run this long leaves byte mode…
const ALPHANUMERIC_AFTER_BYTE = 11;
// …and a digit run this long ends an alphanumeric run (this short when it ends the code: no switch back).
const NUMERIC_AFTER_ALPHANUMERIC = 13;
const NUMERIC_AT_THE_END = 8;
const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/**
 * The segments (numeric, alphanumeric, byte) of a BR Code, in one pass.
 * Given a bare string, `qrcode` finds the shortest segmentation by a
 * shortest-path search over every split: 0.8 ms of a 1 ms matrix. A BR Code
 * is long digit runs (the EMV ids and lengths, the amount), a lowercase URL
 * and an uppercase tail (country, name, city, CRC), which these thresholds
 * split as the search does: over 1,000 random codes the QR version is the
 * search's for 99.9 % and one more for the rest (qr-image.test.ts).
 */
export function brCodeSegments(text: string): QrSegment[] {
  const segments: QrSegment[] = [];
  const digitsFrom = (at: number): number => {
    let end = at;
    while (end < text.length && isDigit(text.charCodeAt(end))) end++;
    return end - at;
  };
  const alphanumericFrom = (at: number): number => {
    let end = at;
    while (end < text.length && isQrAlphanumeric(text.charCodeAt(end))) {
      const digits = end > at ? digitsFrom(end) : 0;
      if (digits >= NUMERIC_AFTER_ALPHANUMERIC || (digits >= NUMERIC_AT_THE_END && end + digits === text.length)) break;
      end++;
    }
    return end - at;
  };
  let byteStart = -1;
  for (let i = 0; i < text.length; ) {
    const digits = digitsFrom(i);
    const alphanumerics = digits >= NUMERIC_AFTER_BYTE ? 0 : alphanumericFrom(i);
    const segment: QrSegment | undefined =
      digits >= NUMERIC_AFTER_BYTE
        ? { mode: 'numeric', data: text.slice(i, i + digits) }
        : alphanumerics >= ALPHANUMERIC_AFTER_BYTE
          ? { mode: 'alphanumeric', data: text.slice(i, i + alphanumerics) }
          : undefined;
    if (!segment) {
      if (byteStart < 0) byteStart = i;
      i++;
      continue;
    }
    if (byteStart >= 0) segments.push({ mode: 'byte', data: Buffer.from(text.slice(byteStart, i), 'utf8') });
    byteStart = -1;
    segments.push(segment);
    i += digits >= NUMERIC_AFTER_BYTE ? digits : alphanumerics;
  }
  if (byteStart >= 0) segments.push({ mode: 'byte', data: Buffer.from(text.slice(byteStart), 'utf8') });
  return segments;
}

/** PNG of the QR code for `text`. */
export function qrCodePng(text: string): Buffer {
  const modules = qrMatrix(brCodeSegments(text));
  const side = (modules.size + 2 * QUIET_ZONE_MODULES) * MODULE_PX;
  const rowBytes = png1BitRowBytes(side);
  const stride = rowBytes + 1;
  // Zero-filled: every row after the first of a module row stays "Up" + zeros.
  const filtered = Buffer.alloc(side * stride);
  const row = Buffer.alloc(rowBytes);
  let offset = 0;
  /** One module row: `row` once unfiltered, then MODULE_PX - 1 copies of the row above. */
  const emit = (): void => {
    filtered[offset] = PNG_FILTER_NONE;
    row.copy(filtered, offset + 1);
    offset += stride;
    for (let dy = 1; dy < MODULE_PX; dy++, offset += stride) filtered[offset] = PNG_FILTER_UP;
  };
  row.fill(0xff); // bit 1 = white
  for (let i = 0; i < QUIET_ZONE_MODULES; i++) emit();
  // A 4-pixel module is half a byte and the quiet zone an even number of modules, so the modules x and x + 1
  // of a row make the byte QUIET_ZONE_MODULES / 2 + x / 2; a QR side is odd, so its last module is a byte alone.
  const { size, data } = modules;
  const firstByte = QUIET_ZONE_MODULES / 2;
  for (let y = 0, at = 0; y < size; y++, at += size) {
    let x = 0;
    for (; x + 1 < size; x += 2) row[firstByte + x / 2] = MODULE_PAIR_BYTE[data[at + x]! * 2 + data[at + x + 1]!]!;
    row[firstByte + x / 2] = MODULE_PAIR_BYTE[data[at + x]! * 2]!;
    emit();
  }
  row.fill(0xff);
  for (let i = 0; i < QUIET_ZONE_MODULES; i++) emit();
  return png1BitGray(side, side, filtered, DEFLATE);
}

/**
 * The last images drawn, by code. The image is a pure function of the code
 * and is not stored (the transaction keeps only the code): the view of a
 * transaction draws it, so a sale's response, the GETs that follow it and its
 * webhook deliveries in this process draw it once. 1,024 images of 0.5-1 KB.
 */
const recentImages = new Map<string, string>();
const RECENT_IMAGES = 1024;

/** PNG of the QR code for `text`, as plain base64 (no `data:` prefix). */
export function qrCodePngBase64(text: string): string {
  let image = recentImages.get(text);
  if (image === undefined) {
    image = qrCodePng(text).toString('base64');
    if (recentImages.size >= RECENT_IMAGES) recentImages.delete(recentImages.keys().next().value!);
    recentImages.set(text, image);
  }
  return image;
}
