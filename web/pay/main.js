/*
 * The hosted payment page of a payment link (GET /pay/{id}), bundled by
 * scripts/build-web.mjs into the served /pay/assets/page.js.
 *
 * The server renders the link's data and a CSRF token into the page; this
 * script asks the link's public endpoints to start the buyer's payment, and
 * for a card mounts the vault's hosted fields (SvcVault, from
 * {vaultUrl}/sdk.js) so the card number is typed in the vault's frame. No
 * inline code or style: the page's CSP allows its nonce'd script only.
 *
 * Why this entry: the page starts once the document is parsed.
 */
import { init } from './page.js';

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
else init();
