/**
 * The vault as an HTTP app, on its own origin (VAULT_PORT / PUBLIC_VAULT_URL):
 *   GET  /sdk.js             the seller page's script (SvcVault)
 *   GET  /hosted-fields      the page inside the iframe (+ its .js and .css)
 *   GET  /keys               the public encryption keys, current first
 *   POST /tokenize           encrypted card + ticket → single-use token
 *   POST /internal/authorize the API's authorization call (internal bearer)
 * No API key on the public routes; no request body is ever logged.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Environment } from '../../config.js';
import type { Db } from '../../db/database.js';
import { clientErrorHandler, refuseConnect } from '../../http/client-errors.js';
import { frameworkErrors, installErrorHandler } from '../../http/error-handler.js';
import { installInputGuard } from '../../http/input-guard.js';
import { healthRoutes } from '../../http/health.js';
import { respond } from '../../http/respond.js';
import { validatorCompiler } from '../../http/validation.js';
import { DomainError, type Outcome } from '../../lib/domain-error.js';
import type { ChargeRecord } from '../providers/index.js';
import { isInternalBearer, type CardAuthorizer, type VaultAuthorization } from './authorize.js';
import type { VaultKeys } from './keys.js';
import type { Tokenizer } from './tokenize.js';
import { serveAsset } from '../../http/web-assets.js';

const TOKENIZE_BODY_LIMIT = 16 * 1024;

const TokenizeBody = Type.Object(
  {
    ticket: Type.String({ minLength: 1, maxLength: 4096 }),
    keyId: Type.String({ minLength: 1, maxLength: 64 }),
    encryptedCard: Type.String({ minLength: 1, maxLength: 12_000 }),
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

const TokenSchema = Type.Object({
  token: Type.String(),
  brand: Type.String(),
  last4: Type.String(),
  expMonth: Type.Integer(),
  expYear: Type.Integer(),
});

/** The wire answer of a definite "no charge stands" (200, so that it is never mistaken for an unknown outcome). */
export interface NotChargedBody {
  notCharged: true;
  reason: string;
}

/** The wire answer of /internal/authorize; httpVaultClient (client.ts) reads it back into a VaultAuthorization. */
function authorizationOutcome(answer: VaultAuthorization): Outcome<ChargeRecord | NotChargedBody> {
  if (answer.kind === 'charged') return answer.record;
  if (answer.kind === 'not-charged') return { notCharged: true, reason: answer.reason };
  if (answer.kind === 'refused') return answer.error;
  return new DomainError('PROVIDER_ERROR', 'The acquirer did not answer');
}

export interface VaultAppDeps {
  env: Environment;
  db: Db;
  keys: VaultKeys;
  tokenizer: Tokenizer;
  authorizer: CardAuthorizer;
  internalKey: Buffer;
  logger?: FastifyBaseLogger;
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
  healthRoutes(app, deps.db);

  app.get('/sdk.js', async (request, reply) => serveAsset(request, reply, 'vault/sdk.js', 'application/javascript; charset=utf-8'));
  app.get('/hosted-fields.js', async (request, reply) => serveAsset(request, reply, 'vault/hosted-fields.js', 'application/javascript; charset=utf-8'));
  app.get('/hosted-fields.css', async (request, reply) => serveAsset(request, reply, 'vault/hosted-fields.css', 'text/css; charset=utf-8'));
  app.get('/hosted-fields', async (request, reply) => {
    reply.header('Content-Security-Policy', hostedFieldsPolicy(deps.env)).header('Referrer-Policy', 'no-referrer');
    return serveAsset(request, reply, 'vault/hosted-fields.html', 'text/html; charset=utf-8');
  });

  app.get('/keys', async (_request, reply) => {
    reply.header('Cache-Control', 'public, max-age=300');
    return { keys: await deps.keys.list() };
  });

  // Errors go through the API's error table (respond → STATUS_BY_CODE); a rate-limited attempt keeps its Retry-After.
  app.post<{ Body: Static<typeof TokenizeBody> }>('/tokenize', { schema: { body: TokenizeBody, response: { 201: TokenSchema } } }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return respond(request, reply, await deps.tokenizer.tokenize(request.body, request.ip));
  });

  app.post<{ Body: Static<typeof AuthorizeBody> }>('/internal/authorize', { schema: { body: AuthorizeBody } }, async (request, reply) => {
    if (!isInternalBearer(deps.internalKey, request.headers.authorization)) return respond(request, reply, new DomainError('UNAUTHORIZED', 'Internal route'));
    return respond(request, reply, authorizationOutcome(await deps.authorizer.authorize(request.body)));
  });
  return app;
}
