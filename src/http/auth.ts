/**
 * API key authentication and scopes for /v2 routes.
 *
 * Keys are looked up by their SHA-256. Lookups are cached for at most
 * KEY_CACHE_MS so a busy key does not cost a query per request, while a
 * revoked key is refused within that time on every node (the contract allows
 * 5 s). A key of the other environment is refused like an unknown one.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Environment } from '../config.js';
import type { Clock } from '../lib/clock.js';
import { environmentOfKey, hashKey, looksLikeKey, type KeyLookup, type Scope } from '../modules/companies/index.js';
import { ERRORS } from '../lib/i18n/messages/errors.js';
import { AppError } from './errors.js';

export interface AuthContext {
  companyId: string;
  keyId: string;
  scopes: readonly Scope[] | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | undefined;
  }
  interface FastifyContextConfig {
    /** The scope a route needs; routes without it are public. */
    scope?: Scope;
  }
}

export const KEY_CACHE_MS = 2_000;
const KEY_CACHE_MAX = 10_000;

export function installAuth(app: FastifyInstance, env: Environment, lookup: KeyLookup, clock: Clock): void {
  const cache = new Map<string, { at: number; value: Awaited<ReturnType<KeyLookup>> }>();

  async function find(hash: string) {
    const hit = cache.get(hash);
    if (hit && clock.now().getTime() - hit.at < KEY_CACHE_MS) return hit.value;
    const value = await lookup(hash);
    if (cache.size >= KEY_CACHE_MAX) cache.clear();
    cache.set(hash, { at: clock.now().getTime(), value });
    return value;
  }

  app.decorateRequest('auth', undefined);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const scope = request.routeOptions.config?.scope;
    if (!scope) return;
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw new AppError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.missingKey);
    const token = match[1]!;
    if (!looksLikeKey(token)) throw new AppError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.invalidKey);
    if (environmentOfKey(token) !== env) {
      throw new AppError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.otherEnvironment({ environment: env }));
    }
    const found = await find(hashKey(token));
    if (!found || found.revoked || found.environment !== env) throw new AppError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.invalidKey);
    if (found.scopes && !found.scopes.includes(scope)) {
      throw new AppError('FORBIDDEN', ERRORS.FORBIDDEN.missingScope({ scope }));
    }
    request.auth = { companyId: found.companyId, keyId: found.keyId, scopes: found.scopes };
  });
}

/** The authenticated caller of a protected route (auth ran in onRequest). */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Error('authOf called on a route without a scope');
  return request.auth;
}
