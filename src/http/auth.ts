/**
 * API key authentication and scopes for /v2 routes.
 *
 * Keys are looked up by their SHA-256. Lookups are cached for at most
 * KEY_CACHE_MS so a busy key does not cost a query per request, while a
 * revoked key is refused within that time on every node (the contract allows
 * 5 s). A key of the other environment is refused like an unknown one.
 *
 * Keys the database knows and keys it does not are cached apart, each in a
 * bounded LRU: a flood of random keys only evicts other random keys. Failed
 * authentications (every 401) are counted per client address; past
 * AUTH_FAILURES_PER_IP_PER_MINUTE the address gets 429 RATE_LIMITED instead of
 * 401. A key is still looked up however many failures its address has made,
 * so a valid key keeps working from an address that also sends bad ones (a
 * shop behind the same NAT as an attacker), even on a process that has never
 * seen it: one indexed query, bounded like any request's. Requests that miss
 * the cache for one key at the same time share one lookup (SingleFlight).
 *
 * The keys themselves (their format, their rows) are the companies module's:
 * it answers through ApiKeys, wired in app.ts, so src/http imports no module.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Environment } from '../config.js';
import type { Clock } from '../lib/clock.js';
import { LruMap } from '../lib/lru.js';
import { SingleFlight } from '../lib/single-flight.js';
import { ERRORS } from '../lib/i18n/messages/errors.js';
import { AppError } from './errors.js';
import { perMinuteCounter } from './rate-limit.js';
import { SCOPE_PARTS, scopeAllows, type Scope } from './scopes.js';

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
/** Keys the database knows (one per active integration), each kept until the least recently used goes. */
const KNOWN_KEYS_MAX = 10_000;
/** Keys the database does not know: their own LRU, so that guessing cannot push a known key out. */
const UNKNOWN_KEYS_MAX = 10_000;

/** What authentication learns of a key from its hash. */
export interface KeyGrant {
  companyId: string;
  keyId: string;
  scopes: readonly Scope[] | null;
  environment: string;
  revoked: boolean;
}

/** What authentication asks of the keys' owner: their format, and a key's grant by its hash. */
export interface ApiKeys {
  /** A well-formed key: anything else is refused without a lookup. */
  looksLikeKey(token: string): boolean;
  /** The environment a key was issued for, read from the key itself. */
  environmentOf(token: string): Environment | undefined;
  /** What keys are stored and looked up by (never the key itself). */
  hash(token: string): string;
  /** A key's grant by its hash, undefined for a key nobody issued (cached here). */
  lookup(hash: string): Promise<KeyGrant | undefined>;
}

interface AuthOptions {
  env: Environment;
  keys: ApiKeys;
  clock: Clock;
  /** Failed authentications a client address may make per minute before 429. */
  failuresPerMinute: number;
}

/** Needs the rate-limit plugin (installRateLimit) registered first: the failure counts share its store. */
export function installAuth(app: FastifyInstance, { env, keys, clock, failuresPerMinute }: AuthOptions): void {
  const known = new LruMap<string, { at: number; grant: KeyGrant }>(KNOWN_KEYS_MAX);
  const unknown = new LruMap<string, number>(UNKNOWN_KEYS_MAX);
  // Requests that miss the cache together wait for one lookup of their key.
  const lookups = new SingleFlight<string, KeyGrant | undefined>();
  const failures = perMinuteCounter(app, 'auth-failures', failuresPerMinute, (request) => request.ip);
  const works = (grant: KeyGrant) => !grant.revoked && grant.environment === env;

  /** A key's grant, from the caches while fresh, else from the database. */
  async function find(hash: string): Promise<KeyGrant | undefined> {
    const now = clock.now().getTime();
    const hit = known.get(hash);
    if (hit && now - hit.at < KEY_CACHE_MS) return hit.grant;
    const missedAt = unknown.get(hash);
    // The same bound as revocation: a key issued after a miss works within KEY_CACHE_MS.
    if (missedAt !== undefined && now - missedAt < KEY_CACHE_MS) return undefined;
    const grant = await lookups.run(hash, () => keys.lookup(hash));
    const at = clock.now().getTime();
    if (grant) {
      known.set(hash, { at, grant });
      unknown.delete(hash);
    } else {
      unknown.set(hash, at);
      known.delete(hash);
    }
    return grant;
  }

  /** A 401 counts against the address; past its allowance the answer is 429 instead. */
  async function fail(request: FastifyRequest, unauthorized: AppError): Promise<never> {
    throw (await failures.count(request)) ?? unauthorized;
  }

  app.decorateRequest('auth', undefined);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const scope = request.routeOptions.config?.scope;
    if (!scope) return;
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) return fail(request, new AppError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.missingKey));
    const token = match[1]!;
    if (!keys.looksLikeKey(token)) return fail(request, new AppError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.invalidKey));
    if (keys.environmentOf(token) !== env) {
      return fail(request, new AppError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.otherEnvironment({ environment: env })));
    }
    const found = await find(keys.hash(token));
    if (!found || !works(found)) return fail(request, new AppError('UNAUTHORIZED', ERRORS.UNAUTHORIZED.invalidKey));
    if (!scopeAllows(found.scopes, scope)) {
      const broad = (Object.keys(SCOPE_PARTS) as Scope[]).find((s) => SCOPE_PARTS[s]!.includes(scope));
      throw new AppError('FORBIDDEN', broad ? ERRORS.FORBIDDEN.missingScopeOr({ scope, broad }) : ERRORS.FORBIDDEN.missingScope({ scope }));
    }
    request.auth = { companyId: found.companyId, keyId: found.keyId, scopes: found.scopes };
  });
}

/** The authenticated caller of a protected route (auth ran in onRequest). */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Error('authOf called on a route without a scope');
  return request.auth;
}
