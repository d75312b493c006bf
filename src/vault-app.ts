/**
 * The vault as an HTTP app, on its own origin (VAULT_PORT / PUBLIC_VAULT_URL):
 *   GET  /sdk.js             the seller page's script (SvcVault)
 *   GET  /hosted-fields      the page inside the iframe (+ its .js and .css)
 *   GET  /keys               the public encryption keys, current first
 *   POST /tokenize           encrypted card + ticket → single-use token
 *   POST /internal/authorize       the API's authorization call (internal bearer)
 *   POST /internal/closed-intents  the API's notice of card intents that are over (internal bearer)
 * No API key on the public routes; no request body is ever logged. It stands
 * beside the API's app (app.ts) as the vault's process's HTTP side; the
 * vault's behaviour is in modules/vault.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Environment } from './config.js';
import type { Db } from './db/database.js';
import { clientErrorHandler, refuseConnect } from './http/client-errors.js';
import { frameworkErrors, installErrorHandler, sendErrorsInEveryLanguage } from './http/error-handler.js';
import { AppError } from './http/errors.js';
import { requestLog } from './http/request-log.js';
import { installInputGuard } from './http/input-guard.js';
import { healthRoutes } from './http/health.js';
import { API_VERSION } from './http/api-guide.js';
import { errors } from './http/common-schemas.js';
import { installOpenApi } from './http/openapi.js';
import { respond } from './http/respond.js';
import { validatorCompiler } from './http/validation.js';
import { DomainError, type Outcome } from './lib/domain-error.js';
import { ERRORS } from './lib/i18n/messages/errors.js';
import type { ChargeRecord } from './modules/providers/index.js';
import { isInternalBearer, type NotChargedBody, type Tokenizer, type VaultAuthorization, type VaultClient, type VaultKeys } from './modules/vault/index.js';
import { serveAsset } from './http/web-assets.js';
import { installSecurityHeaders } from './http/security-headers.js';

const TOKENIZE_BODY_LIMIT = 16 * 1024;
const VAULT_GUIDE =
  "The card vault, on its own origin: the buyer's page loads /sdk.js, which mounts /hosted-fields in an iframe; the fields encrypt " +
  'the card to a key of /keys and post it to /tokenize with the card intent\'s ticket. No API key: a tokenization is authorized by the ticket. ' +
  'Card digits reach only this origin.';

const TokenizeBody = Type.Object(
  {
    ticket: Type.String({ minLength: 1, maxLength: 4096, description: "cardTokenization.ticket of the card intent" }),
    keyId: Type.String({ minLength: 1, maxLength: 64, description: 'the kid of the key the card was encrypted to' }),
    encryptedCard: Type.String({
      minLength: 1,
      maxLength: 12_000,
      description: 'compact JWE (RSA-OAEP-256, A256GCM, kid = keyId, protected header `ticket` = ticket) of {number, holderName, expMonth, expYear, cvv}',
    }),
  },
  { additionalProperties: false },
);

const AuthorizeBody = Type.Object(
  {
    token: Type.String({ pattern: '^vtk_', maxLength: 4100 }),
    intentId: Type.String({ maxLength: 64 }),
    companyId: Type.String({ maxLength: 64 }),
    amountCents: Type.Integer({ minimum: 1 }),
    installments: Type.Integer({ minimum: 1, maximum: 12 }),
    /** Epoch milliseconds after which the vault starts no authorization (authorize.ts). */
    deadline: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

const TokenSchema = Type.Object(
  {
    token: Type.String({ description: 'vtk_…: single use, for the confirm of this intent only' }),
    brand: Type.String(),
    last4: Type.String(),
    expMonth: Type.Integer(),
    expYear: Type.Integer(),
  },
  { $id: 'VaultToken', description: 'the card token' },
);

const KeyListSchema = Type.Object(
  {
    keys: Type.Array(
      Type.Object(
        {
          keyId: Type.String(),
          alg: Type.Literal('RSA-OAEP-256'),
          enc: Type.Literal('A256GCM'),
          current: Type.Boolean({ description: 'true for the key to encrypt to' }),
          jwk: Type.Object({ kty: Type.Literal('RSA'), kid: Type.String(), alg: Type.Literal('RSA-OAEP-256'), use: Type.Literal('enc'), n: Type.String(), e: Type.String() }),
        },
        { $id: 'VaultPublicKey' },
      ),
    ),
  },
  { $id: 'VaultKeyList', description: 'the public encryption keys, current first' },
);

const Script = (description: string) => Type.String({ description });

const ClosedIntentsBody = Type.Object(
  {
    intents: Type.Array(
      Type.Object(
        {
          intentId: Type.String({ minLength: 1, maxLength: 64 }),
          /** Epoch milliseconds: the intent's expiry (vault/closed-intents.ts). */
          expiresAt: Type.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 500 },
    ),
  },
  { additionalProperties: false },
);

/** The wire answer of /internal/authorize; httpVaultClient (vault/client.ts) reads it back into a VaultAuthorization. */
function authorizationOutcome(answer: VaultAuthorization): Outcome<ChargeRecord | NotChargedBody> {
  if (answer.kind === 'charged') return answer.record;
  if (answer.kind === 'not-charged') return { notCharged: true, reason: answer.reason };
  if (answer.kind === 'refused') return answer.error;
  return new DomainError('PROVIDER_ERROR', ERRORS.PROVIDER_ERROR.noAnswer);
}

export interface VaultAppDeps {
  env: Environment;
  db: Db;
  keys: VaultKeys;
  tokenizer: Tokenizer;
  /** What the internal routes answer: the vault's in-process client (Vault.client). */
  client: VaultClient;
  internalKey: Buffer;
  /** TRUST_PROXY: the proxies whose X-Forwarded-For names the buyer's address (the per-address card attempt limit). */
  trustProxy?: string[] | false;
  logger?: FastifyBaseLogger;
  /** Where browsers reach the vault (PUBLIC_VAULT_URL), for its API reference; without it, the reference's own origin. */
  publicUrl?: string;
}

/**
 * The hosted fields page may run only its own files; it may be framed by any
 * seller page in the sandbox (sellers test on localhost), by https pages in production.
 */
function hostedFieldsPolicy(env: Environment): string {
  const ancestors = env === 'production' ? 'https:' : '*';
  return `default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors ${ancestors}; base-uri 'none'; form-action 'none'`;
}

export async function buildVaultApp(deps: VaultAppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    bodyLimit: TOKENIZE_BODY_LIMIT,
    logController: requestLog(),
    trustProxy: deps.trustProxy ?? false,
    genReqId: () => randomUUID(),
    frameworkErrors,
    // The buyer's browser reaches the vault directly: parser errors get the contract's body too.
    clientErrorHandler,
  });
  app.setValidatorCompiler(validatorCompiler);
  refuseConnect(app.server);
  installErrorHandler(app);
  installInputGuard(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  installSecurityHeaders(app, deps.publicUrl);
  await installOpenApi(app, {
    title: 'Card vault',
    version: API_VERSION,
    description: VAULT_GUIDE,
    serverUrl: deps.publicUrl ?? '/',
    apiKey: false,
    ui: false,
  });
  healthRoutes(app, deps.db);

  const hide = { schema: { hide: true } };
  const sdkSchema = { operationId: 'getVaultSdk', tags: ['Vault'], summary: 'The SvcVault script for the buyer\'s page', produces: ['application/javascript'], response: { 200: Script('JavaScript (cached 5 minutes, ETag)') } };
  app.get('/sdk.js', { schema: sdkSchema }, async (request, reply) => serveAsset(request, reply, 'vault/sdk.js', 'application/javascript; charset=utf-8'));
  app.get('/hosted-fields.js', hide, async (request, reply) => serveAsset(request, reply, 'vault/hosted-fields.js', 'application/javascript; charset=utf-8'));
  app.get('/hosted-fields.css', hide, async (request, reply) => serveAsset(request, reply, 'vault/hosted-fields.css', 'text/css; charset=utf-8'));
  const pageSchema = { operationId: 'getHostedFields', tags: ['Vault'], summary: 'The card fields page inside the iframe (not called directly)', produces: ['text/html'], response: { 200: Script('HTML') } };
  app.get('/hosted-fields', { schema: pageSchema }, async (request, reply) => {
    reply.header('Content-Security-Policy', hostedFieldsPolicy(deps.env)).header('Referrer-Policy', 'no-referrer');
    return serveAsset(request, reply, 'vault/hosted-fields.html', 'text/html; charset=utf-8');
  });

  app.get('/keys', { schema: { operationId: 'listVaultKeys', tags: ['Vault'], summary: 'The public encryption keys', response: { 200: KeyListSchema } } }, async (_request, reply) => {
    reply.header('Cache-Control', 'public, max-age=300');
    return { keys: await deps.keys.list() };
  });

  // Errors go through the API's error table (respond → STATUS_BY_CODE); a rate-limited attempt keeps its Retry-After.
  app.post<{ Body: Static<typeof TokenizeBody> }>('/tokenize', {
      schema: {
        operationId: 'tokenizeCard',
        tags: ['Vault'],
        summary: 'Encrypted card + ticket → single-use token (what the hosted fields call)',
        body: TokenizeBody,
        response: { 201: TokenSchema, ...errors('TICKET_EXPIRED', 'INTENT_ALREADY_PROCESSED', 'RATE_LIMITED') },
      },
    }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return respond(request, reply, await deps.tokenizer.tokenize(request.body, request.ip));
  });

  // The API's own call: without the internal bearer it is refused before its body is read; past it, errors come with their
  // texts in every language, for the API to render in its own client's language (vault/client.ts).
  const internalCaller = async (request: FastifyRequest) => {
    if (!isInternalBearer(deps.internalKey, request.headers.authorization)) throw new AppError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.internalRoute);
    sendErrorsInEveryLanguage(request);
  };
  app.post<{ Body: Static<typeof AuthorizeBody> }>('/internal/authorize', { schema: { hide: true, body: AuthorizeBody }, onRequest: internalCaller }, async (request, reply) =>
    respond(request, reply, authorizationOutcome(await deps.client.authorize(request.body))),
  );
  app.post<{ Body: Static<typeof ClosedIntentsBody> }>('/internal/closed-intents', { schema: { hide: true, body: ClosedIntentsBody }, onRequest: internalCaller }, async (request, reply) => {
    await deps.client.intentsClosed(request.body.intents);
    return reply.code(204).send();
  });
  return app;
}
