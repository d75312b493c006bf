/**
 * The hosted page's HTML: the built template (web/pay/page.html) with this
 * request's CSP nonce and the page's data (the link as the buyer sees it, the
 * CSRF token) as a JSON island the script reads. The data goes in a
 * `type="application/json"` element, never run as code, with `<`, `>`, `&`
 * and the JavaScript line separators escaped so no text of the seller can
 * close the element; the template is filled by fillTemplate, which takes
 * every character of a value as it is (a `$'` in a description included).
 */
import { randomBytes } from 'node:crypto';
import { fillTemplate } from '../../http/web-assets.js';
import type { ReceiptWithUrl } from './page-service.js';
import type { LinkStatus } from './schemas.js';

/**
 * An unknown link's page says only that: no id is echoed, so the page of
 * every unknown address is the same, and nothing typed in a URL reaches it.
 */
interface NotFoundData {
  status: 'NOT_FOUND';
}

interface LinkData {
  linkId: string;
  status: LinkStatus;
  sellerName: string;
  description: string;
  amountCents: number;
  paymentMethods: string[];
  maxInstallments: number;
  vaultUrl: string;
  token?: string;
  sandbox?: boolean;
}

export type PageData = NotFoundData | LinkData;

/** The characters that could end the island's element or the script reading it, as JSON's \uXXXX escapes. */
const UNSAFE_IN_ISLAND = /[<>&\u2028\u2029]/g;

/** A receipt's page (pay/receipt.html): the receipt and its address, or that there is none. */
export type ReceiptData = { status: 'NOT_FOUND' } | ({ status: 'PAID' } & ReceiptWithUrl);

const jsonIsland = (data: PageData | ReceiptData): string =>
  JSON.stringify(data).replace(UNSAFE_IN_ISLAND, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export const newNonce = (): string => randomBytes(18).toString('base64');

export function renderPage(data: PageData, nonce: string): string {
  return fillTemplate('pay/page.html', { nonce, data: jsonIsland(data) });
}

export function renderReceipt(data: ReceiptData, nonce: string): string {
  return fillTemplate('pay/receipt.html', { nonce, data: jsonIsland(data) });
}
