/**
 * The hosted payment page and its public endpoints (no API key):
 *
 * - GET /pay/{id}: the page, with a per-response CSP nonce and a CSRF token
 *   bound to the link (page-token.ts);
 * - POST /pay/{id}/intents: the buyer pays (a card intent, or a Pix / boleto
 *   charge); POST /pay/{id}/intents/{pi}/confirm: the card's vault token;
 * - GET /pay/{id}/transactions/{trx}: the sale's state, polled by the page;
 *   .../receipt: the address of its receipt once paid (receipt.ts);
 * - POST /pay/{id}/transactions/{trx}/simulate-payment: the sandbox's
 *   "Simular pagamento" of a Pix or boleto (sandbox only);
 * - GET /pay/receipts/{trx}/{token}: the receipt (comprovante) of a paid sale.
 *
 * The POSTs need the page's token in `X-Pay-Token` and an `Origin` equal to
 * PUBLIC_API_URL's (a browser always sends it with a POST from a page), and
 * are limited per client address and per link; the poll per address. The
 * seller's key never reaches the browser: these routes act as the link's
 * company on the server.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { Config } from '../../config.js';
import { AppError } from '../../http/errors.js';
import { errors } from '../../http/common-schemas.js';
import { perMinuteLimit } from '../../http/rate-limit.js';
import { respond } from '../../http/respond.js';
import { checkoutPagePolicy, serveAsset } from '../../http/web-assets.js';
import type { Clock } from '../../lib/clock.js';
import { isDomainError, type Outcome } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import { newNonce, renderPage, renderReceipt, type PageData } from './page-html.js';
import type { PaymentPageService } from './page-service.js';
import { PageTokens } from './page-token.js';
import { PageChargeSchema, PageConfirmBody, PageHeaders, PageItemParams, PageParams, PagePayBody, PagePaymentSchema, PageViewParams, ReceiptParams } from './schemas.js';

export interface PageRouteDeps {
  pages: PaymentPageService;
  config: Config;
  clock: Clock;
  internalKey: Buffer;
}

const TAGS = ['Hosted payment page (public)'];
const TOKEN_HEADER = 'x-pay-token';
/** The page polls a Pix every few seconds: the poll gets ten times the address's allowance of payments. */
const POLLS_PER_PAYMENT = 10;
/** What the page's POSTs answer before any rule: not from the page (Origin, X-Pay-Token), or too many. */
const PAGE_ERRORS = ['FORBIDDEN', 'RATE_LIMITED'] as const;

/** A sale's state is the buyer's alone: never cached by the browser or a proxy. */
function noStore<T>(reply: FastifyReply, outcome: Outcome<T>): FastifyReply {
  return isDomainError(outcome) ? reply : reply.header('Cache-Control', 'no-store');
}

export function paymentPageRoutes(app: FastifyInstance, deps: PageRouteDeps): void {
  const { pages, config, clock } = deps;
  const tokens = new PageTokens(deps.internalKey);
  const origin = new URL(config.publicApiUrl).origin;
  const linkOf = (request: FastifyRequest) => (request.params as { id: string }).id;

  /** The CSRF defence: the request comes from the page's origin and carries a token that page was served with. */
  const fromThePage = async (request: FastifyRequest) => {
    if (request.headers.origin !== origin) {
      throw new AppError('FORBIDDEN', ERRORS.FORBIDDEN.notFromThePage, [{ field: 'Origin', message: PROBLEMS.mustBe({ what: origin }) }]);
    }
    const token = request.headers[TOKEN_HEADER];
    if (!tokens.check(linkOf(request), typeof token === 'string' ? token : undefined, clock.now())) {
      throw new AppError('FORBIDDEN', ERRORS.FORBIDDEN.pageOutOfDate, [{ field: 'X-Pay-Token', message: PROBLEMS.pageToken }]);
    }
  };
  const perAddress = perMinuteLimit(app, 'pay-ip', config.payPagePerIpPerMinute, (request) => request.ip);
  const perLink = perMinuteLimit(app, 'pay-link', config.payPagePerLinkPerMinute, linkOf);
  const polls = perMinuteLimit(app, 'pay-poll', config.payPagePerIpPerMinute * POLLS_PER_PAYMENT, (request) => request.ip);

  app.get('/pay/assets/page.js', { schema: { hide: true } }, (request, reply) => serveAsset(request, reply, 'pay/page.js', 'application/javascript; charset=utf-8'));
  app.get('/pay/assets/receipt.js', { schema: { hide: true } }, (request, reply) => serveAsset(request, reply, 'pay/receipt.js', 'application/javascript; charset=utf-8'));
  app.get('/pay/assets/page.css', { schema: { hide: true } }, (request, reply) => serveAsset(request, reply, 'pay/page.css', 'text/css; charset=utf-8'));

  // Any id, of any length: whatever is not a link gets the same not-found page, which echoes nothing of it.
  app.get<{ Params: Static<typeof PageViewParams> }>('/pay/:id', { schema: { hide: true, params: PageViewParams } }, async (request, reply) => {
    const info = await pages.info(request.params.id);
    const data: PageData = isDomainError(info)
      ? { status: 'NOT_FOUND' }
      : {
          linkId: info.link.id,
          status: info.status,
          sellerName: info.sellerName,
          description: info.link.description,
          amountCents: info.link.amount_cents,
          paymentMethods: info.link.payment_methods,
          maxInstallments: info.link.max_installments,
          vaultUrl: config.publicVaultUrl,
          // The sandbox's page says it is a test and offers the test cards and "Simular pagamento".
          ...(config.env === 'sandbox' ? { sandbox: true } : {}),
          ...(info.status === 'ACTIVE' ? { token: tokens.issue(info.link.id, clock.now()) } : {}),
        };
    const nonce = newNonce();
    return reply
      .code(isDomainError(info) ? 404 : 200)
      .header('Content-Security-Policy', checkoutPagePolicy(config.publicVaultUrl, { nonce }))
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .header('X-Content-Type-Options', 'nosniff')
      .type('text/html; charset=utf-8')
      .send(renderPage(data, nonce));
  });

  app.post<{ Params: Static<typeof PageParams>; Body: Static<typeof PagePayBody> }>(
    '/pay/:id/intents',
    {
      preHandler: [fromThePage, perAddress, perLink],
      schema: {
        operationId: 'payThroughPaymentPage',
        tags: TAGS,
        summary: "The hosted page starts the buyer's payment (card intent, or Pix / boleto charge)",
        headers: PageHeaders,
        params: PageParams,
        body: PagePayBody,
        response: { 201: PageChargeSchema, ...errors(...PAGE_ERRORS, 'PAYMENT_LINK_UNAVAILABLE', 'SPLIT_INVALID', 'SPLIT_RECIPIENT_NOT_FOUND', 'PAYMENT_METHOD_UNAVAILABLE', 'PROVIDER_ERROR') },
      },
    },
    async (request, reply) => {
      const charge = await pages.pay(request.params.id, request.body);
      return respond(request, noStore(reply, charge), charge);
    },
  );

  app.post<{ Params: Static<typeof PageItemParams>; Body: Static<typeof PageConfirmBody> }>(
    '/pay/:id/intents/:itemId/confirm',
    {
      preHandler: [fromThePage, perAddress],
      schema: {
        operationId: 'confirmPaymentPageCard',
        tags: TAGS,
        summary: "The hosted page confirms the buyer's card intent with the vault's token",
        headers: PageHeaders,
        params: PageItemParams,
        body: PageConfirmBody,
        response: { 201: PagePaymentSchema, ...errors(...PAGE_ERRORS, 'TOKEN_REQUIRED', 'INTENT_ALREADY_PROCESSED', 'INTENT_EXPIRED', 'PROVIDER_ERROR') },
      },
    },
    async (request, reply) => {
      const payment = await pages.confirmCard(request.params.id, request.params.itemId, request.body.token);
      return respond(request, noStore(reply, payment), payment);
    },
  );

  app.get<{ Params: Static<typeof PageItemParams> }>(
    '/pay/:id/transactions/:itemId',
    {
      preHandler: [polls],
      schema: {
        operationId: 'getPaymentPagePayment',
        tags: TAGS,
        summary: 'The state of a sale of the link, as the page polls it',
        params: PageItemParams,
        response: { 200: PagePaymentSchema, ...errors('RATE_LIMITED') },
      },
    },
    async (request, reply) => {
      const payment = await pages.payment(request.params.id, request.params.itemId);
      return respond(request, noStore(reply, payment), payment);
    },
  );

  // The receipt's address, once the sale is paid: the page links to it (hidden: the page's own call, not the API).
  app.get<{ Params: Static<typeof PageItemParams> }>(
    '/pay/:id/transactions/:itemId/receipt',
    { preHandler: [polls], schema: { hide: true, params: PageItemParams } },
    async (request, reply) => {
      const receipt = await pages.paymentReceipt(request.params.id, request.params.itemId);
      return respond(request, noStore(reply, receipt), receipt);
    },
  );

  // The receipt: whoever has its address (the buyer's page, the seller's people), else the same not-found page for all.
  app.get<{ Params: Static<typeof ReceiptParams> }>('/pay/receipts/:transactionId/:token', { preHandler: [polls], schema: { hide: true, params: ReceiptParams } }, async (request, reply) => {
    const found = await pages.publicReceipt(request.params.transactionId, request.params.token);
    const nonce = newNonce();
    return reply
      .code(isDomainError(found) ? 404 : 200)
      .header('Content-Security-Policy', checkoutPagePolicy(config.publicVaultUrl, { nonce }))
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .header('X-Content-Type-Options', 'nosniff')
      .header('X-Robots-Tag', 'noindex')
      .type('text/html; charset=utf-8')
      .send(renderReceipt(isDomainError(found) ? { status: 'NOT_FOUND' } : { status: 'PAID', ...found }, nonce));
  });

  if (config.env === 'sandbox') {
    // The sandbox page's "Simular pagamento": from the page (Origin, X-Pay-Token) and within the address's and the link's limits, as a payment is.
    app.post<{ Params: Static<typeof PageItemParams> }>(
      '/pay/:id/transactions/:itemId/simulate-payment',
      { preHandler: [fromThePage, perAddress, perLink], schema: { hide: true, headers: PageHeaders, params: PageItemParams } },
      async (request, reply) => {
        const payment = await pages.simulatePayment(request.params.id, request.params.itemId);
        return respond(request, noStore(reply, payment), payment);
      },
    );
  }
}
