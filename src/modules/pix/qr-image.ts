/**
 * QR code image for a BR Code, drawn on the hot path of every Pix
 * confirmation. The `qrcode` library computes the module matrix; the PNG is
 * written here as 1-bit grayscale (see png-1bit.ts) rather than by qrcode's
 * renderer (RGBA, every row filter) or pngjs (8-bit at least).
 *
 * Figures, median of 3,000 renders on a shared 2-core development machine:
 * a 152-character BR Code (version 6) took 3.5 ms and 1,889 bytes with the
 * former 8-bit pngjs writer and automatic mask, now 0.28 ms and 554 bytes; a
 * 189-character one (version 8) 4.4-7.0 ms and 2,169 bytes, now 0.37 ms and
 * 622 bytes. 250 random codes in the test: 471 to 631 bytes. Two choices
 * make that:
 * - Mask pattern 2 is fixed. The standard allows any of the 8 masks (the
 *   format information tells the reader which one); automatic selection only
 *   scores all 8 for readability and cost 0.75 ms of the 1.05 ms matrix.
 *   Over 400 random BR Codes mask 2 was the best-scoring one half of the time
 *   and on average the closest to the best; qr-image.test.ts decodes hundreds
 *   of random codes with two independent decoders (jsQR and zbar).
 * - Rows are 1 bit per pixel with the "Up" filter: the rows inside a module
 *   repeat the row above and filter to zeros, so deflate at its default level
 *   has little left to do (0.04 ms).
 *
 * Error correction level M (~15 % recovery) balances density and robustness
 * for codes shown on screens and printed; the BCB manual leaves the level to
 * the issuer. Each module is 4 px and the quiet zone 4 modules, as the QR
 * standard asks; a page shows it larger with `image-rendering: pixelated`
 * (as web/demo/checkout.css does) to keep the edges sharp.
 */
import QRCode from 'qrcode';
import { png1BitGray, png1BitRowBytes } from './png-1bit.js';

const MODULE_PX = 4;
const QUIET_ZONE_MODULES = 4;
const MASK_PATTERN = 2;
const DEFLATE_LEVEL = 6;
const PNG_FILTER_NONE = 0;
const PNG_FILTER_UP = 2;

/** PNG of the QR code for `text`. */
export function qrCodePng(text: string): Buffer {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M', maskPattern: MASK_PATTERN });
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
  for (let y = 0; y < modules.size; y++) {
    row.fill(0xff);
    for (let x = 0; x < modules.size; x++) {
      if (!modules.get(y, x)) continue;
      const start = (x + QUIET_ZONE_MODULES) * MODULE_PX;
      for (let p = start; p < start + MODULE_PX; p++) row[p >> 3]! &= ~(0x80 >> (p & 7));
    }
    emit();
  }
  row.fill(0xff);
  for (let i = 0; i < QUIET_ZONE_MODULES; i++) emit();
  return png1BitGray(side, side, filtered, DEFLATE_LEVEL);
}

/** PNG of the QR code for `text`, as plain base64 (no `data:` prefix). */
export async function qrCodePngBase64(text: string): Promise<string> {
  return qrCodePng(text).toString('base64');
}
