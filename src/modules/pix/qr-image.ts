/**
 * QR code image for a BR Code. Error correction level M (~15 % recovery) is a
 * balance between density and robustness for codes shown on screens and
 * printed receipts; the BCB manual leaves the level to the issuer. A quiet
 * zone (margin) of 2 modules is enough for phone cameras in practice.
 */
import QRCode from 'qrcode';

/** PNG of the QR code for `text`, as plain base64 (no `data:` prefix). */
export async function qrCodePngBase64(text: string): Promise<string> {
  const png = await QRCode.toBuffer(text, {
    type: 'png',
    errorCorrectionLevel: 'M',
    margin: 2,
    width: 300,
  });
  return png.toString('base64');
}
