/** Pix BR Code (dynamic charge) generation, parsing and QR image. */
export {
  buildDynamicBrCode,
  normalizeMerchantText,
  parseBrCode,
  parseTlv,
  pixLocationUrl,
  MAX_LOCATION_LENGTH,
  PIX_GUI,
} from './br-code.js';
export { qrCodePngBase64 } from './qr-image.js';
