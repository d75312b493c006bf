/**
 * The hosted page's HTML: the built template (web/pay/page.html) with this
 * request's CSP nonce and the page's data (the link as the buyer sees it, the
 * CSRF token) as a JSON island the script reads. The data goes in a
 * `type="application/json"` element, never run as code, with `<`, `>` and `&`
 * escaped so no text of the seller can close the element.
 */
import { randomBytes } from 'node:crypto';
import { assetText } from '../../http/web-assets.js';
import type { LinkStatus } from './schemas.js';

export interface PageData {
  linkId: string;
  status: LinkStatus | 'NOT_FOUND';
  sellerName?: string;
  description?: string;
  amountCents?: number;
  paymentMethods?: string[];
  maxInstallments?: number;
  vaultUrl?: string;
  token?: string;
}

const jsonIsland = (data: PageData): string =>
  JSON.stringify(data).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

export const newNonce = (): string => randomBytes(18).toString('base64');

export function renderPage(data: PageData, nonce: string): string {
  return assetText('pay/page.html').replaceAll('{{nonce}}', nonce).replace('{{data}}', jsonIsland(data));
}

