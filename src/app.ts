/**
 * buildApp(deps) assembles the API as a Fastify instance without listening,
 * so tests drive it with `inject` and roles decide where it listens.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { installAuth } from './http/auth.js';
import { frameworkErrors, installErrorHandler, notJsonType } from './http/error-handler.js';
import { AppError, statusOf } from './http/errors.js';
import { healthRoutes } from './http/health.js';
import { clientErrorHandler, refuseConnect } from './http/client-errors.js';
import { installInputGuard, jsonTextProblem } from './http/input-guard.js';
import { API_GUIDE, API_VERSION } from './http/api-guide.js';
import { installOpenApi } from './http/openapi.js';
import { PT_BR_DOCUMENT } from './http/openapi-pt-br.js';
import { installRateLimit, perMinuteCounter } from './http/rate-limit.js';
import { requestLog } from './http/request-log.js';
import { installSecurityHeaders } from './http/security-headers.js';
import { rootRoute } from './http/root.js';
import { validatorCompiler } from './http/validation.js';
import { lazySerializers } from './lib/lazy-serializers.js';
import type { Sealer } from './lib/aes-gcm.js';
import type { Clock } from './lib/clock.js';
import type { IdGenerator } from './lib/ids.js';
import type { Services } from './services.js';
import type { Providers } from './modules/providers/index.js';
import { AuditLog, auditRoutes } from './modules/audit/index.js';
import { CompanyService, keyFormat, shownKeyPrefix, type KeyRecord } from './modules/companies/index.js';
import { dashboardPageRoutes, dashboardRoutes } from './modules/dashboard/index.js';
import { demoRoutes } from './modules/demo/index.js';
import { PaymentIntentService, paymentIntentRoutes, VaultNotices } from './modules/payment-intents/index.js';
import { linkSlotGuard, PaymentLinkService, PaymentPageService, paymentLinkRoutes, paymentPageRoutes, ReceiptTokens } from './modules/payment-links/index.js';
import { EventService, eventRoutes, Outbox } from './modules/events/index.js';
import { IdempotencyService, installIdempotency } from './modules/idempotency/index.js';
import { IncomingPayments, notificationRoutes } from './modules/incoming-payments/index.js';
import { ReceivableService, receivableRoutes } from './modules/receivables/index.js';
import { RefundService, refundRoutes, sandboxRefundRoutes } from './modules/refunds/index.js';
import { sandboxTransactionRoutes, storedViewForm, TransactionService, transactionRoutes } from './modules/transactions/index.js';
import { dashboardGuards, UserService, userRoutes, type MemberCredentialList, type MemberCredentials, type ScryptParams } from './modules/users/index.js';
import type { VaultClient } from './modules/vault/index.js';
import {
  DeliveryWorker,
  httpSender,
  shownWebhookUrl,
  systemResolver,
  webhookDocs,
  webhookFanOut,
  WebhookService,
  webhookRoutes,
  type Resolver,
  type Sender,
} from './modules/webhooks/index.js';

export type { Services };

const BODY_LIMIT = 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  /** The connector serving each payment method; a method absent is switched off. */
  providers: Providers;
  /** Seals secrets at rest: webhook secrets and stored idempotent responses. */
  sealer: Sealer;
  /** Shared with the vault: signs card tickets, authenticates the API's calls to the vault. */
  internalKey: Buffer;
  /** Authorizes card payments and hears which card intents are over (the vault over HTTP; in-process in tests). */
  vault: VaultClient;
  /** DNS for the webhook URL guard (tests inject one; the machine may have no DNS). */
  resolve?: Resolver;
  /** Sends webhook deliveries (tests may inject one). */
  sender?: Sender;
  /** Randomness of webhook retries' jitter, a number in [0, 1); Math.random unless a test injects its own. */
  random?: () => number;
  /** A pino logger; without one the app logs nothing (tests). */
  logger?: FastifyBaseLogger;
  /** scrypt's parameters for dashboard passwords: OWASP's unless a test asks for cheaper ones (the test kit, or DASHBOARD_TEST_PASSWORD_HASHES outside production). */
  passwordParams?: ScryptParams;
}

/**
 * A member's keys and webhooks for their removal (users/team.ts): the
 * companies and webhooks modules list or revoke those the member made, in the
 * removal's transaction. Joined here so that the users module imports neither.
 */
function memberCredentials(companies: CompanyService, webhooks: WebhookService): MemberCredentials {
  const listed = (keys: KeyRecord[], hooks: { id: string; url: string }[]): MemberCredentialList => ({
    keys: keys.map((k) => ({ id: k.id, name: k.name, prefix: shownKeyPrefix(k.environment, k.hint) })),
    // An admin (who removes members) has developers.read: the URL without its query.
    webhooks: hooks.map((h) => ({ id: h.id, url: shownWebhookUrl(h.url, true) })),
  });
  return {
    of: async (ex, companyId, userId) => listed(await companies.activeKeysBy(companyId, userId, ex), await webhooks.activeBy(companyId, userId, ex)),
    revoke: async (ex, companyId, userId) => listed(await companies.revokeKeysBy(companyId, userId, ex), await webhooks.removeBy(companyId, userId, ex)),
  };
}

export function buildServices(deps: AppDeps): Services {
  const { db, clock, newId, providers, config, sealer } = deps;
  const idempotency = new IdempotencyService({ db, clock, sealer, statusOf, storedForm: storedViewForm });
  const receivables = new ReceivableService(db, clock, newId);
  // Events write their deliveries through the webhooks module (a port: webhooks depends on events, not the reverse).
  const fanOut = webhookFanOut(newId);
  const outbox = new Outbox({ newId, fanOut });
  const transactions = new TransactionService({ db, clock, newId, receivables, outbox });
  const vaultNotices = new VaultNotices({ db, clock, vault: deps.vault });
  const intents = new PaymentIntentService({
    db,
    clock,
    newId,
    providers,
    transactions,
    config,
    checkSplitRules: receivables.checkSplitRules,
    idempotency,
    internalKey: deps.internalKey,
    vault: deps.vault,
    linkSlotGuard,
    intentEvents: outbox,
    log: deps.logger,
    vaultNotices,
  });
  const allowLoopback = config.webhookAllowLoopback;
  const audit = new AuditLog(db, clock, newId);
  const companies = new CompanyService(db, clock, newId, config.env);
  const webhooks = new WebhookService({ db, clock, newId, sealer, allowLoopback, resolve: deps.resolve ?? systemResolver });
  return {
    idempotency,
    companies,
    transactions,
    intents,
    vaultNotices,
    paymentLinks: new PaymentLinkService({ db, clock, newId, checkSplitRules: receivables.checkSplitRules, publicApiUrl: config.publicApiUrl }),
    paymentPages: new PaymentPageService({ db, clock, intents, transactions, receipts: new ReceiptTokens(deps.internalKey), publicApiUrl: config.publicApiUrl }),
    receivables,
    refunds: new RefundService({ db, clock, newId, providers, transactions, outbox }),
    webhooks,
    events: new EventService({ db, clock, fanOut }),
    deliveries: new DeliveryWorker({
      db,
      clock,
      newId,
      sealer,
      retryDelaysMs: config.webhookRetryScheduleMs,
      sender: deps.sender ?? httpSender({ allowLoopback }),
      random: deps.random ?? Math.random,
      disableAfterMs: config.webhookDisableAfterMs,
      outbox,
    }),
    incomingPayments: new IncomingPayments({
      db,
      clock,
      providers,
      transactions,
      reconcileIntervalMs: config.reconcileIntervalSeconds * 1_000,
      ...(deps.logger ? { warn: (details, message) => deps.logger!.warn(details, message) } : {}),
    }),
    users: new UserService({
      db,
      clock,
      newId,
      sealer,
      audit,
      env: config.env,
      publicApiUrl: config.publicApiUrl,
      credentials: memberCredentials(companies, webhooks),
      internalKey: deps.internalKey,
      ...(deps.passwordParams ? { passwordParams: deps.passwordParams } : {}),
    }),
    audit,
  };
}

export async function buildApp(deps: AppDeps, services = buildServices(deps)): Promise<FastifyInstance> {
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    bodyLimit: BODY_LIMIT,
    logController: requestLog(),
    trustProxy: deps.config.trustProxy,
    // Never log the Authorization header or bodies (keys, card data).
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    requestIdHeader: false,
    ajv: { customOptions: { strict: false } },
    // Response serializers compiled when first used, not all at the start (src/lib/lazy-serializers.ts).
    schemaController: { compilersFactory: { buildSerializer: lazySerializers() } },
    routerOptions: { maxParamLength: 500 },
    // Errors the router raises before any hook (bad percent-encoding, an overlong path parameter).
    frameworkErrors,
    // Requests the HTTP parser refuses (bad header bytes, unknown methods, spaces in the path).
    clientErrorHandler,
  });
  app.setValidatorCompiler(validatorCompiler);
  refuseConnect(app.server);

  // JSON bodies; an empty body with a JSON content type is no body (a bodiless confirm).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    const problem = jsonTextProblem(body as string);
    if (problem) return done(new AppError(problem), undefined);
    parseJson(request, body as string, done);
  });
  // Any other content type: an empty body is no body (fetch sends text/plain for ''); anything else is refused.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(null, undefined);
    done(new AppError(notJsonType()), undefined);
  });

  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  installSecurityHeaders(app, deps.config.publicApiUrl);

  installErrorHandler(app, async (request) => request.idempotency?.release());
  installInputGuard(app);
  await installOpenApi(app, {
    title: 'Payment collection API',
    version: API_VERSION,
    description: API_GUIDE,
    serverUrl: deps.config.publicApiUrl,
    apiKey: true,
    ui: true,
    webhooks: webhookDocs(),
    languages: { 'pt-BR': PT_BR_DOCUMENT },
  });
  await installRateLimit(app, { perSecond: deps.config.rateLimitPerSecond, redisUrl: deps.config.redisUrl });
  installAuth(app, {
    env: deps.config.env,
    keys: { ...keyFormat, lookup: services.companies.keyLookup },
    clock: deps.clock,
    failuresPerMinute: deps.config.authFailuresPerIpPerMinute,
  });
  installIdempotency(app, services.idempotency);

  healthRoutes(app, deps.db);
  rootRoute(app);
  paymentIntentRoutes(app, services.intents);
  transactionRoutes(app, services.transactions);
  paymentLinkRoutes(app, services.paymentLinks);
  paymentPageRoutes(app, { pages: services.paymentPages, config: deps.config, clock: deps.clock, internalKey: deps.internalKey });
  receivableRoutes(app, services.receivables);
  refundRoutes(app, services.refunds);
  webhookRoutes(app, services.webhooks);
  eventRoutes(app, services.events);
  notificationRoutes(app, services.incomingPayments);
  if (deps.config.env === 'sandbox') {
    sandboxTransactionRoutes(app, services.transactions);
    sandboxRefundRoutes(app, services.refunds);
  }
  demoRoutes(app, services, deps.config);
  // The dashboard's JSON API: every route behind the session guard built here (modules/users/guard.ts).
  const perSession = perMinuteCounter(app, 'dashboard-session', deps.config.dashboardRequestsPerSessionPerMinute, (request) => request.dashboardSession?.idHash ?? request.ip);
  const guards = dashboardGuards(services.users, deps.config.publicApiUrl, (request) => perSession.count(request));
  userRoutes(app, { users: services.users, guards, config: deps.config });
  auditRoutes(app, { audit: services.audit, guard: guards.guard });
  dashboardRoutes(app, { db: deps.db, clock: deps.clock, services, config: deps.config, guard: guards.guard, audit: services.audit });
  // The dashboard's pages: after its JSON API, whose routes are more specific than /dashboard/*.
  dashboardPageRoutes(app);
  return app;
}
