/**
 * The sandbox demo checkout (GET /demo/checkout): the first five minutes of a
 * seller's evaluation. A buyer-facing page pays the demo company by card, Pix
 * or boleto through the real flow: the card goes to the vault in its iframe,
 * and these routes play the demo seller's own server, calling the payment
 * services directly as that company (the browser never holds an API key).
 *
 * Sandbox only (no route exists in production). The routes are public, so
 * they only ever touch what the demo page itself created: intents and
 * transactions carry `metadata.source = demo-checkout`, and anything else of
 * the demo company (e.g. what an evaluator creates with the sandbox key) is
 * 404 here. Each client address may make DEMO_PER_IP_PER_MINUTE requests to
 * them a minute (they create sales and mark them paid with no key). Hidden
 * from the API reference: they are not part of the API.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Config } from '../../config.js';
import { IdParams } from '../../http/common-schemas.js';
import { perMinuteLimit } from '../../http/rate-limit.js';
import { respond } from '../../http/respond.js';
import { checkoutPagePolicy, serveAsset } from '../../http/web-assets.js';
import { DomainError, isDomainError, notFound, type Outcome } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import type { CompanyService } from '../companies/index.js';
import { unstoredRecorder } from '../idempotency/index.js';
import { IntentSchema, SANDBOX_BUYER, type CreateIntentInput, type PaymentIntentService } from '../payment-intents/index.js';
import { TransactionSchema, type TransactionService, type TransactionView } from '../transactions/index.js';
import { DEMO } from './fixtures.js';

const DEMO_SOURCE = 'demo-checkout';
const DEMO_DEFAULT_AMOUNT_CENTS = 15_990;
/** R$ 999.999,99: the most the demo page charges. */
const DEMO_MAX_AMOUNT_CENTS = 99_999_999;

/** The fixed buyer of every demo sale, under the e-mail the demo page shows. */
const DEMO_BUYER = { ...SANDBOX_BUYER, email: 'comprador.demo@example.com' } satisfies CreateIntentInput['buyer'];

const DemoIntentBody = Type.Object(
  {
    paymentMethod: Type.Enum(['CREDIT_CARD', 'PIX', 'BOLETO']),
    amountCents: Type.Optional(Type.Integer({ minimum: 1, maximum: DEMO_MAX_AMOUNT_CENTS })),
    installments: Type.Optional(Type.Integer({ minimum: 1, maximum: 12 })),
  },
  { additionalProperties: false },
);

const DemoConfirmBody = Type.Object(
  { token: Type.String({ pattern: '^vtk_', minLength: 5, maxLength: 4100 }) },
  { additionalProperties: false },
);

/** What the demo page's server side calls, as the demo company. */
export interface DemoServices {
  companies: CompanyService;
  intents: PaymentIntentService;
  transactions: TransactionService;
}

const DemoConfig = Type.Object({ vaultUrl: Type.String(), companyName: Type.String() });

/** Whether an intent or transaction was created by the demo page (its metadata says so). */
const isDemo = (view: { metadata: object }) => (view.metadata as Record<string, unknown>).source === DEMO_SOURCE;

/** The demo's answers show one buyer's payment: never cached. Errors go out as they are. */
function noStore<T>(reply: FastifyReply, outcome: Outcome<T>): FastifyReply {
  return isDomainError(outcome) ? reply : reply.header('Cache-Control', 'no-store');
}

/** Registers the demo routes in the sandbox; nothing in production. */
export function demoRoutes(app: FastifyInstance, services: DemoServices, config: Config): void {
  if (config.env !== 'sandbox') return;

  let found: { id: string; name: string } | undefined;
  /** The demo company, looked up on use (tests and the first start create it after the routes exist). */
  async function demoCompany(): Promise<Outcome<{ id: string; name: string }>> {
    if (found) return found;
    const row = await services.companies.findByDocument(DEMO.company.document);
    if (!row) return new DomainError('NOT_FOUND', ERRORS.NOT_FOUND.demoCompany({ document: DEMO.company.document }));
    found = row;
    return row;
  }

  /** A transaction the demo page created, else NOT_FOUND (whatever else the demo company has stays invisible). */
  async function demoTransaction(id: string): Promise<Outcome<TransactionView>> {
    const company = await demoCompany();
    if (isDomainError(company)) return company;
    const transaction = await services.transactions.get(company.id, id);
    if (isDomainError(transaction) || !isDemo(transaction)) return notFound('transaction');
    return transaction;
  }

  const hidden = { hide: true } as const;
  // onRequest: counted before anything reads the request, a malformed one included.
  const limited = { onRequest: perMinuteLimit(app, 'demo-ip', config.demoPerIpPerMinute, (request) => request.ip) };
  const page = (file: string, type: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const company = await demoCompany();
    if (isDomainError(company)) return respond(request, reply, company);
    return serveAsset(request, reply, `demo/${file}`, type);
  };

  app.get('/demo/checkout', { ...limited, schema: hidden }, async (request, reply) => {
    const company = await demoCompany();
    if (isDomainError(company)) return respond(request, reply, company);
    reply.header('Content-Security-Policy', checkoutPagePolicy(config.publicVaultUrl, { self: true })).header('Referrer-Policy', 'no-referrer');
    return serveAsset(request, reply, 'demo/checkout.html', 'text/html; charset=utf-8');
  });
  app.get('/demo/checkout.js', { ...limited, schema: hidden }, page('checkout.js', 'application/javascript; charset=utf-8'));
  app.get('/demo/checkout.css', { ...limited, schema: hidden }, page('checkout.css', 'text/css; charset=utf-8'));

  app.get('/demo/config', { ...limited, schema: { ...hidden, response: { 200: DemoConfig } } }, async (request, reply) => {
    const company = await demoCompany();
    const outcome = isDomainError(company) ? company : { vaultUrl: config.publicVaultUrl, companyName: company.name };
    return respond(request, noStore(reply, outcome), outcome);
  });

  app.post<{ Body: Static<typeof DemoIntentBody> }>(
    '/demo/intents',
    { ...limited, schema: { ...hidden, body: DemoIntentBody, response: { 201: IntentSchema } } },
    async (request, reply) => {
      const company = await demoCompany();
      if (isDomainError(company)) return respond(request, reply, company);
      const { paymentMethod, amountCents = DEMO_DEFAULT_AMOUNT_CENTS, installments } = request.body;
      const input: CreateIntentInput = {
        amountCents,
        paymentMethod,
        referenceId: `demo-${randomUUID()}`,
        description: 'Pedido de demonstração',
        buyer: DEMO_BUYER,
        metadata: { source: DEMO_SOURCE },
        ...(installments !== undefined ? { installments } : {}),
        // Pix and boleto are confirmed by the same call: the page shows the QR code or line at once.
        ...(paymentMethod === 'CREDIT_CARD' ? {} : { confirm: true }),
      };
      const intent = await services.intents.create(company.id, input);
      return respond(request, noStore(reply, intent), intent);
    },
  );

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof DemoConfirmBody> }>(
    '/demo/intents/:id/confirm',
    { ...limited, schema: { ...hidden, params: IdParams, body: DemoConfirmBody, response: { 201: TransactionSchema } } },
    async (request, reply) => {
      const company = await demoCompany();
      if (isDomainError(company)) return respond(request, reply, company);
      const intent = await services.intents.get(company.id, request.params.id);
      if (isDomainError(intent) || !isDemo(intent)) return respond(request, reply, notFound('paymentIntent'));
      const transaction = await services.intents.confirm(company.id, intent.id, request.body.token, unstoredRecorder('demo'));
      return respond(request, noStore(reply, transaction), transaction);
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    '/demo/transactions/:id/pay',
    { ...limited, schema: { ...hidden, params: IdParams, response: { 200: TransactionSchema } } },
    async (request, reply) => {
      const transaction = await demoTransaction(request.params.id);
      if (isDomainError(transaction)) return respond(request, reply, transaction);
      const paid = await services.transactions.settleInSandbox(transaction.sellerId, transaction.id, 'PAID');
      return respond(request, noStore(reply, paid), paid);
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/demo/transactions/:id',
    { ...limited, schema: { ...hidden, params: IdParams, response: { 200: TransactionSchema } } },
    async (request, reply) => {
      const transaction = await demoTransaction(request.params.id);
      return respond(request, noStore(reply, transaction), transaction);
    },
  );
}
