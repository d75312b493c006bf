/** The prose part of the API reference (GET /docs): the contract's decisions a seller needs before the first call. */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../lib/paging.js';

/** The contract's revision: the API's and the vault's references carry it. */
export const API_VERSION = '2.0.1';

/** The guide's one shell example, the same in every language: a partial refund of a paid Pix sale, then its state. */
export const REFUND_EXAMPLE = `\`\`\`sh
KEY=$(cat data/sandbox-key.txt); API=http://localhost:3000
TRX=$(curl -s "$API/v2/transactions?status=PAID&paymentMethod=PIX&limit=1" -H "Authorization: Bearer $KEY" | jq -r '.data[0].id')
RF=$(curl -s $API/v2/transactions/$TRX/refunds -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\
  -H "Idempotency-Key: $TRX-refund-1" -d '{"amountCents": 1000, "reason": "Item devolvido"}' | jq -r .id)
curl -s $API/v2/refunds/$RF -H "Authorization: Bearer $KEY"
\`\`\``;

export const API_GUIDE = `
Charge buyers by card, Pix and boleto, split each sale among accounts, and follow payments by webhooks.

**Authentication.** Every /v2 route takes \`Authorization: Bearer <API_KEY>\`. Sandbox keys start with \`svc_test_\`, production
keys with \`svc_live_\`; a key of the other environment is refused (401 UNAUTHORIZED, with \`WWW-Authenticate: Bearer\`).
Scopes: \`payments:read\`, \`payments:write\`, \`webhooks:read\`, \`webhooks:write\`; a key issued without scopes has them all;
a missing scope is 403 FORBIDDEN. \`payments:read\` holds the narrower \`charges:read\` (intents, transactions, refunds),
\`links:read\` and \`receivables:read\`; \`payments:write\` holds \`charges:write\` (create, confirm, cancel intents),
\`refunds:write\` and \`links:write\`; the sandbox routes need \`payments:write\` itself. A key made in the dashboard has
at most the scopes its creator's role may grant. A revoked key is refused within 5 seconds.

**Errors.** Every error is \`{code, message, details?}\`; with \`Accept-Language: pt-BR\` its messages are in Portuguese
(\`code\` and \`field\` never change). \`details\` names each invalid field (\`buyer.email\`,
\`splitRules[1].percentage\`, \`Idempotency-Key\`). Statuses: 400 VALIDATION_ERROR / TOKEN_REQUIRED (also malformed JSON and
unknown body fields), 401 UNAUTHORIZED / TICKET_EXPIRED, 403 FORBIDDEN, 404 NOT_FOUND (also an id of another company, a
wrong prefix, an unknown route), 409 INTENT_ALREADY_PROCESSED / INTENT_EXPIRED / IDEMPOTENCY_KEY_IN_USE /
TRANSACTION_NOT_PENDING / PAYMENT_LINK_UNAVAILABLE (a payment link expired, canceled or used up) / TRANSACTION_NOT_REFUNDABLE (a refund or chargeback of a transaction that is not PAID, or of a
boleto) / REFUND_EXCEEDS_AVAILABLE (on field \`amountCents\`: more than the amount less its PENDING and SUCCEEDED refunds) /
REFUND_IN_PROGRESS (a card transaction already has a refund PENDING), 413 PAYLOAD_TOO_LARGE (bodies over 1 MiB), 422 SPLIT_INVALID / SPLIT_RECIPIENT_NOT_FOUND /
WEBHOOK_URL_INVALID / WEBHOOK_LIMIT_REACHED / IDEMPOTENCY_KEY_REUSED / PAYMENT_METHOD_UNAVAILABLE (a method the operator
switched off, on field \`paymentMethod\`), 429 RATE_LIMITED (with \`Retry-After\`),
500 INTERNAL_ERROR, 502 PROVIDER_ERROR, 503 SERVICE_UNAVAILABLE (with \`Retry-After\`). A path id over 64 characters is
400 VALIDATION_ERROR on field \`id\`.

**Idempotency-Key** (1–255 characters): required on confirm and on refunds, optional on the other POSTs. Same key, same route and same
body: the first response is replayed byte for byte with \`Idempotent-Replayed: true\` and nothing runs twice. Same key with
another route or body: 422 IDEMPOTENCY_KEY_REUSED. Same key while the first request runs: 409 IDEMPOTENCY_KEY_IN_USE.
Requests rejected before acting are not stored. Keys are kept 24 hours.

**Payment intents** expire 5 minutes after creation (\`expiresAt\`); from that instant every read shows EXPIRED, and a
confirm answers 409 INTENT_EXPIRED. A confirmed Pix transaction that is not paid by \`paymentDetails.pix.expiresAt\`
(default 1 hour, \`pix.expiresInSeconds\` 60–604800), or a boleto not paid by the end of its due date + 3 days
(São Paulo time), becomes CANCELED with a \`transaction.canceled\` event.

**Listing.** \`GET /v2/transactions\` takes \`limit\` (1–${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}), \`startingAfter\` (the last id of the previous page),
\`status\`, \`paymentMethod\`, \`referenceId\`, \`paymentLinkId\` (a \`plink_\` id), \`createdFrom\`, \`createdTo\`; newest first; answers
\`{data, hasMore}\`. \`GET /v2/payment-links\` pages the same way (\`limit\`, \`startingAfter\`).

**Rate limit.** Per key, per second (default 25 in the sandbox, 100 in production). Every response carries
\`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`.

**Cards.** A card intent answers REQUIRES_TOKEN with \`cardTokenization\` (vaultUrl, ticket, encryptionKey). The buyer's page
mounts \`SvcVault\` from \`{vaultUrl}/sdk.js\`; the vault (its own origin; routes /sdk.js, /hosted-fields, /keys, /tokenize, no
API key) returns a single-use \`vtk_\` token, and the seller's server confirms with \`{"token": …}\`: 201 with the transaction
PAID, or FAILED with \`paymentDetails.card.refusalCode\` and \`refusalMessage\` (a refusal is not an HTTP error).

**Payment links.** \`POST /v2/payment-links\` (\`amountCents\`, \`description\`, \`paymentMethods\`, \`maxInstallments\` 1–12 for
cards, \`splitRules\`, \`expiresAt\` in the future, \`maxPayments\` default unlimited, \`metadata\`, \`referenceId\`) answers a
\`plink_\` link with its \`url\`: a hosted page (\`GET /pay/{id}\`, no key, Portuguese with an English switch) where buyers pay by
card (the vault's fields), Pix or boleto. \`status\` is ACTIVE, EXPIRED (from \`expiresAt\`), CANCELED (\`POST
/v2/payment-links/{id}/cancel\`) or COMPLETED (\`maxPayments\` sales PAID); \`paymentsCount\` counts PAID sales. Each payment is an
intent and a transaction carrying \`paymentLinkId\`. A PAID sale, a PENDING one still payable and a confirmation under way
each hold one of \`maxPayments\`; every confirmation of a link's intent locks the link and counts them, so of two buyers
paying the last slot at once one is charged and the other gets 409 PAYMENT_LINK_UNAVAILABLE before any charge. The
page's endpoints (\`POST /pay/{id}/intents\`, \`POST /pay/{id}/intents/{pi}/confirm\`, \`GET /pay/{id}/transactions/{trx}\`)
need the page's \`X-Pay-Token\` and its \`Origin\` (403 FORBIDDEN otherwise) and are rate-limited per address and per link.

**Split and receivables.** \`splitRules\` divide a sale among approved accounts (PERCENTAGE with at most two decimals, or FIXED
centavos); the seller keeps the rest. Once PAID, \`split.receivables\` lists one line per account and installment with gross,
fee (shared by largest remainder), amount and \`expectedOn\` (São Paulo business days). \`GET /v2/receivables\` lists them
across transactions (filters \`status\`, \`recipientDocument\`, \`expectedOnFrom\`, \`expectedOnTo\`).

**Refunds.** \`POST /v2/transactions/{id}/refunds\` (\`amountCents\` optional: all that is left; \`reason\` ≤ 255) refunds a PAID
card or Pix sale, in as many refunds as needed; \`rf_\` ids, status PENDING → SUCCEEDED or FAILED; \`GET /v2/refunds/{id}\`,
\`GET /v2/transactions/{id}/refunds\`. Card: a void at the acquirer, at once. Pix: a devolução at the PSP, asynchronous (PENDING
until the PSP settles it; the service follows it). A boleto cannot be refunded (no rail gives money back through a boleto).
The fee is returned pro rata: after refunds totalling R of a sale of amount A with fee F, the fee kept is F − floor(F × R / A).
The transaction shows \`refundedCents\` (SUCCEEDED refunds), \`feeCents\` (the fee kept) and \`netAmountCents\` = A − R −
\`feeCents\`; a refund of all that is left makes it CANCELED (\`refund.succeeded\`, then \`transaction.canceled\`).
Receivables change when a refund succeeds: PENDING lines go down (latest installment first) and what lines already paid
out cannot cover is a negative adjustment line (\`adjustment: "REFUND"\`, \`refundId\`, installment 0, due the next business
day). A refused card (FAILED) or a sale canceled before payment shows \`feeCents\` 0 and \`netAmountCents\` 0.

${REFUND_EXAMPLE}

**Webhooks.** Registrations receive \`transaction.created\`, \`transaction.paid\`, \`transaction.canceled\`, \`refund.succeeded\` and
\`refund.failed\` (whose \`data\` carries \`refund\` and \`transaction\`), signed with
\`X-Svc-Signature: v1=<hex>\`, the HMAC-SHA256 of \`<X-Svc-Timestamp>.<raw body>\` under the registration's secret. Production
retries after 1 min, 5 min, 30 min, 2 h and 12 h, each up to a fifth later at random, later still when a 429 or 503 asks so with
\`Retry-After\` (up to 12 h); the sandbox sends once. A registration whose deliveries all failed for 5 days is disabled
(\`status: disabled\`, a \`webhook.disabled\` event whose \`data\` carries \`webhook\`); \`POST /v2/webhooks/{id}/enable\` sends what
waited. \`GET /v2/events\`, \`GET /v2/webhooks/{id}/deliveries\` and \`POST /v2/events/{id}/resend\` help debugging an endpoint.

**Sandbox.** \`POST /v2/sandbox/transactions/{id}/pay\` marks a PENDING transaction PAID; \`…/fail\` cancels it; \`…/settle\` pays
a PAID transaction's receivables at once; \`…/chargeback\` plays a chargeback of a PAID card transaction (CANCELED with
\`chargedBackAt\` and \`chargedBackCents\`, receivables reversed, the fee returned, \`transaction.canceled\`; otherwise 409
TRANSACTION_NOT_REFUNDABLE). Pix and boleto intents of exactly 50200 centavos make the simulated acquirer silent
(502 PROVIDER_ERROR, intent FAILED); test cards ending 0002 and 0069 are refused, 0119 is silent.
`.trim();
