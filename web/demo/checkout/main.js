/*
 * The sandbox demo checkout (GET /demo/checkout), bundled by
 * scripts/build-web.mjs into the served /demo/checkout.js.
 *
 * It plays a seller's checkout page: it asks the demo seller's server
 * (/demo/...) to create and confirm payment intents, and for cards mounts the
 * vault's hosted fields (SvcVault, loaded from {vaultUrl}/sdk.js) so the card
 * number is typed in the vault's iframe and only a single-use token comes
 * back here. Pix and boleto are confirmed at creation; the buyer's payment is
 * simulated with the sandbox pay route. No inline code or style (the page's
 * CSP forbids both).
 *
 * Why this entry: the page starts once the document is parsed.
 */
import { init } from './page.js';

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
else init();
