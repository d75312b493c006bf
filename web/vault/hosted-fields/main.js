/*
 * Hosted card fields: the page inside the iframe that SvcVault.mount()
 * creates (GET /hosted-fields on the vault origin), bundled by
 * scripts/build-web.mjs into the served /hosted-fields.js.
 *
 * This is the only browser code that sees card digits. It validates them,
 * encrypts them for the vault (compact JWE, RSA-OAEP-256 + A256GCM), calls
 * POST /tokenize on its own origin and hands the parent page nothing but
 * {token, brand, last4}. Nothing here needs what the page's CSP forbids
 * (inline script or style, eval).
 *
 * Why this entry: the pure half (card rules, formatting, JWE, fragment
 * checks) is published as globalThis.SvcHostedFields so tests can run the
 * served bundle under Node; the page itself starts only when a document exists.
 */
import { brandInfo, detectBrand } from './brands.js';
import { formatExpiry, formatNumber } from './format.js';
import { parseFragment, sanitizeStyle } from './fragment.js';
import { b64url, buildJwe } from './jwe.js';
import { redact } from './messaging.js';
import { startPage } from './page.js';
import { luhnValid, parseExpiry, validateCvv, validateHolder, validateNumber } from './validate.js';

globalThis.SvcHostedFields = {
  detectBrand,
  brandInfo,
  luhnValid,
  formatNumber,
  formatExpiry,
  validateNumber,
  parseExpiry,
  validateCvv,
  validateHolder,
  buildJwe,
  b64url,
  parseFragment,
  sanitizeStyle,
  redact,
};

if (typeof document !== 'undefined') startPage();
