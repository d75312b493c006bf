/**
 * Configuration: every setting comes from the environment, is parsed once at
 * start, and a bad value stops the process with a message naming the variable.
 * loadConfig is pure (it reads only the object it is given) so tests can build
 * any configuration without touching process.env.
 */
import path from 'node:path';
import ipaddr from 'ipaddr.js';

export type Environment = 'sandbox' | 'production';
type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** How long PostgreSQL work may take before it is given up (0: no limit), so a stalled database becomes 503 within seconds. */
export interface DatabaseTimeouts {
  /** Server side (statement_timeout): a statement running longer is canceled. */
  statementTimeoutMs: number;
  /** Server side (idle_in_transaction_session_timeout): a session silent inside a transaction is ended and its locks released. */
  idleInTransactionTimeoutMs: number;
  /** Client side: a query unanswered this long is abandoned (a stalled network) and its connection dropped. */
  queryTimeoutMs: number;
  /** Client side: opening a connection. */
  connectTimeoutMs: number;
}

export const DEFAULT_DATABASE_POOL_SIZE = 20;
export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  statementTimeoutMs: 5_000,
  idleInTransactionTimeoutMs: 5_000,
  // Longer than the statement timeout, so a slow statement is reported by the server, and a silent one by this.
  queryTimeoutMs: 6_000,
  connectTimeoutMs: 3_000,
};

export interface Config {
  env: Environment;
  /** Where the API and the vault listen (HOST): loopback in the sandbox, every interface in production. */
  host: string;
  port: number;
  vaultPort: number;
  publicVaultUrl: string;
  /** Where buyers reach the API (PUBLIC_API_URL, no trailing slash): payment links' pages are under it, and their requests must come from its origin. */
  publicApiUrl: string;
  /** Payments the hosted page may start per client address per minute (PAY_PAGE_PER_IP_PER_MINUTE). */
  payPagePerIpPerMinute: number;
  /** Payments the hosted page may start per payment link per minute (PAY_PAGE_PER_LINK_PER_MINUTE). */
  payPagePerLinkPerMinute: number;
  /** Failed authentications (no key, or a key that is not valid) per client address per minute, then 429 (AUTH_FAILURES_PER_IP_PER_MINUTE). */
  authFailuresPerIpPerMinute: number;
  /** Dashboard sign-in attempts (password, code, invitation) per client address per minute, then 429 (DASHBOARD_SIGNIN_PER_IP_PER_MINUTE). */
  dashboardSigninPerIpPerMinute: number;
  /** Requests of one dashboard session per minute, then 429 (DASHBOARD_REQUESTS_PER_SESSION_PER_MINUTE). */
  dashboardRequestsPerSessionPerMinute: number;
  /** Requests to the sandbox's /demo routes per client address per minute (DEMO_PER_IP_PER_MINUTE). */
  demoPerIpPerMinute: number;
  /**
   * Addresses or CIDR ranges of the reverse proxies in front of the API and the vault (TRUST_PROXY):
   * only a request arriving from one of them has its client address taken from X-Forwarded-For.
   * false (unset): the socket's address is the client's, and X-Forwarded-For is ignored.
   */
  trustProxy: string[] | false;
  /** PostgreSQL connection string; undefined means the embedded PGlite in dataDir. */
  databaseUrl: string | undefined;
  /** The vault's connection (VAULT_DATABASE_URL, default databaseUrl): its own role may read the vault's tables, DATABASE_URL's then may not. */
  vaultDatabaseUrl: string | undefined;
  /** PostgreSQL connections per process (DATABASE_POOL_SIZE): processes × pool size must stay under the server's max_connections. */
  databasePoolSize: number;
  databaseTimeouts: DatabaseTimeouts;
  dataDir: string;
  redisUrl: string | undefined;
  logLevel: LogLevel;
  rateLimitPerSecond: number;
  webhookAllowLoopback: boolean;
  /** Test-only (DASHBOARD_TEST_PASSWORD_HASHES, refused in production): new dashboard passwords hashed at TEST_SCRYPT, not OWASP's cost. */
  testPasswordHashes: boolean;
  /** Delays before each webhook retry, counted from the failed attempt (WEBHOOK_RETRY_SCHEDULE); empty: one attempt. */
  webhookRetryScheduleMs: readonly number[];
  /** A registration whose deliveries have all failed for this long is disabled (WEBHOOK_DISABLE_AFTER, default 5 days). */
  webhookDisableAfterMs: number;
  /** 32-byte key (base64) sealing webhook secrets at rest; unset in the sandbox: generated into DATA_DIR. */
  webhookSecretsKey: Buffer | undefined;
  /** 32 bytes: encrypts the vault's private keys and card data; read only by the vault (see ConfigReader). Unset outside production: generated into DATA_DIR. */
  vaultMasterKey: Buffer | undefined;
  /** 32 bytes shared by API and vault: signs card tickets and authenticates the API's calls to the vault. */
  internalKey: Buffer | undefined;
  /** Where the API reaches the vault's internal routes. */
  vaultInternalUrl: string;
  /** Tokenize attempts allowed per client IP per minute (card-testing defence). */
  vaultAttemptsPerIpPerMinute: number;
  vaultIntentsPerCardPerHour: number;
  /** Host and path (no scheme) under which Pix locations are published in the BR Code, field 26-25. */
  pixLocationBase: string;
  /** Name printed in Pix codes when a company name has no usable letters. */
  pixMerchantCity: string;
  /** Which connector serves each payment method (PIX_PROVIDER, CARD_PROVIDER, BOLETO_PROVIDER). */
  providers: ProviderChoice;
  /** How often the worker asks a provider about one unsettled charge, and lists its recent payments (RECONCILE_INTERVAL_SECONDS). */
  reconcileIntervalSeconds: number;
  /** The PSP's API Pix (PIX_PROVIDER=bcb-api-pix). */
  bcbPix: BcbPixConfig | undefined;
  /** Cielo E-commerce API 3.0 (CARD_PROVIDER or BOLETO_PROVIDER=cielo). */
  cielo: CieloConfig | undefined;
}

export const PIX_PROVIDERS = ['simulated', 'bcb-api-pix', 'disabled'] as const;
export const CARD_PROVIDERS = ['simulated', 'cielo', 'disabled'] as const;
export const BOLETO_PROVIDERS = ['simulated', 'cielo', 'disabled'] as const;
export interface ProviderChoice {
  pix: (typeof PIX_PROVIDERS)[number];
  card: (typeof CARD_PROVIDERS)[number];
  boleto: (typeof BOLETO_PROVIDERS)[number];
}

/** A PSP's API Pix (BCB standard): OAuth2 client credentials and mTLS with the certificate the PSP issued. */
export interface BcbPixConfig {
  /** PIX_API_URL: base of the API Pix (…/v2), https. */
  apiUrl: string;
  /** PIX_OAUTH_URL: the OAuth2 token endpoint, https. */
  oauthUrl: string;
  clientId: string;
  clientSecret: string;
  /** PIX_CERT_FILE, PIX_KEY_FILE: PEM files of the client certificate, presented on every call. */
  certFile: string;
  keyFile: string;
  /** PIX_CA_FILE: extra trust for the PSP's server certificate (PEM), if any. */
  caFile: string | undefined;
  /** PIX_KEY: the receiving account's Pix key. */
  pixKey: string;
  /** PIX_WEBHOOK_URL: where the PSP posts notifications (our POST …/pix route), https. */
  webhookUrl: string | undefined;
}

/** Cielo E-commerce API 3.0: merchant credentials, transactional and query bases. */
export interface CieloConfig {
  /** CIELO_API_URL: transactional base (https://api.cieloecommerce.cielo.com.br). */
  apiUrl: string;
  /** CIELO_QUERY_URL: query base (https://apiquery.cieloecommerce.cielo.com.br). */
  queryUrl: string;
  merchantId: string;
  merchantKey: string;
  /** CIELO_BOLETO_PROVIDER: the bank registering boletos (Bradesco2, BancoDoBrasil2…). */
  boletoProvider: string;
}

/**
 * Who reads the configuration: a role of `svc`, or an operator command
 * (`vault`: the vault's own commands). Only the vault's readers need its
 * secrets, and the API and the worker refuse them, so that a compromise of
 * either cannot open a card and a copied environment file does not spread them.
 */
export type ConfigReader = 'serve' | 'api' | 'vault' | 'worker' | 'operator';

/** The variables only the vault reads. */
const VAULT_ONLY = ['VAULT_MASTER_KEY', 'VAULT_DATABASE_URL'] as const;

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** An hour: the longest database timeout accepted. */
const MAX_TIMEOUT_MS = 3_600_000;

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function oneOf<T extends string>(env: Record<string, string | undefined>, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function url(env: Record<string, string | undefined>, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'is not a valid URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw;
}

function base64Key(env: Record<string, string | undefined>, name: string): Buffer | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32 || !/^[A-Za-z0-9+/]+=*$/.test(raw)) throw new ConfigError(name, 'must be 32 bytes in base64 (e.g. openssl rand -base64 32)');
  return key;
}

/** Production's webhook retries: 1 min, 5 min, 30 min, 2 h and 12 h after each failure. The sandbox sends once. */
const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '1m,5m,30m,2h,12h';
const MAX_RETRIES = 20;
const DURATION_UNITS_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const MAX_RETRY_DELAY_MS = 7 * DURATION_UNITS_MS.d!;

/** `1m,5m,30m,2h,12h` → milliseconds; `none` → no retry. */
function parseRetrySchedule(name: string, raw: string): number[] {
  if (raw.trim() === 'none') return [];
  const parts = raw.split(',').map((p) => p.trim());
  const expected = `must be "none" or up to ${MAX_RETRIES} comma-separated durations of 1s to 7d such as ${DEFAULT_WEBHOOK_RETRY_SCHEDULE} (units s, m, h, d), got "${raw}"`;
  if (parts.length > MAX_RETRIES) throw new ConfigError(name, expected);
  return parts.map((part) => {
    const match = /^(\d+)([smhd])$/.exec(part);
    const ms = match ? Number(match[1]) * DURATION_UNITS_MS[match[2]!]! : NaN;
    if (!(ms >= 1_000 && ms <= MAX_RETRY_DELAY_MS)) throw new ConfigError(name, expected);
    return ms;
  });
}

/** As Svix: a registration whose deliveries have all failed for 5 days is disabled. */
const DEFAULT_WEBHOOK_DISABLE_AFTER = '5d';
const MAX_WEBHOOK_DISABLE_AFTER_MS = 90 * DURATION_UNITS_MS.d!;

/** One duration of 1 h to 90 d (units s, m, h, d): how long a registration may fail before it is disabled. */
function parseDisableAfter(name: string, raw: string): number {
  const match = /^(\d+)([smhd])$/.exec(raw.trim());
  const ms = match ? Number(match[1]) * DURATION_UNITS_MS[match[2]!]! : NaN;
  if (!(ms >= DURATION_UNITS_MS.h! && ms <= MAX_WEBHOOK_DISABLE_AFTER_MS)) {
    throw new ConfigError(name, `must be one duration of 1h to 90d such as ${DEFAULT_WEBHOOK_DISABLE_AFTER} (units s, m, h, d), got "${raw}"`);
  }
  return ms;
}

/** A comma-separated list of IP addresses and CIDR ranges (10.0.0.0/8, ::1). */
function proxyAddresses(env: Record<string, string | undefined>, name: string): string[] | false {
  const entries = (env[name] ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    const valid = entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry);
    if (!valid) throw new ConfigError(name, `must list IP addresses or CIDR ranges separated by commas ("${entry}" is neither)`);
  }
  return entries.length > 0 ? entries : false;
}

function required(env: Record<string, string | undefined>, name: string, why: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') throw new ConfigError(name, `is required ${why}`);
  return raw;
}

function httpsUrl(env: Record<string, string | undefined>, name: string, why: string): string {
  required(env, name, why);
  return url(env, name, ['https:'])!;
}

function bcbPixConfig(env: Record<string, string | undefined>): BcbPixConfig {
  const why = 'with PIX_PROVIDER=bcb-api-pix';
  return {
    apiUrl: httpsUrl(env, 'PIX_API_URL', why).replace(/\/+$/, ''),
    oauthUrl: httpsUrl(env, 'PIX_OAUTH_URL', why),
    clientId: required(env, 'PIX_CLIENT_ID', why),
    clientSecret: required(env, 'PIX_CLIENT_SECRET', why),
    certFile: path.resolve(required(env, 'PIX_CERT_FILE', why)),
    keyFile: path.resolve(required(env, 'PIX_KEY_FILE', why)),
    caFile: env.PIX_CA_FILE ? path.resolve(env.PIX_CA_FILE) : undefined,
    pixKey: required(env, 'PIX_KEY', why),
    webhookUrl: url(env, 'PIX_WEBHOOK_URL', ['https:']),
  };
}

function cieloConfig(env: Record<string, string | undefined>, boleto: boolean): CieloConfig {
  const why = 'with CARD_PROVIDER=cielo or BOLETO_PROVIDER=cielo';
  return {
    apiUrl: httpsUrl(env, 'CIELO_API_URL', why).replace(/\/+$/, ''),
    queryUrl: httpsUrl(env, 'CIELO_QUERY_URL', why).replace(/\/+$/, ''),
    merchantId: required(env, 'CIELO_MERCHANT_ID', why),
    merchantKey: required(env, 'CIELO_MERCHANT_KEY', why),
    boletoProvider: boleto ? required(env, 'CIELO_BOLETO_PROVIDER', 'with BOLETO_PROVIDER=cielo') : (env.CIELO_BOLETO_PROVIDER ?? ''),
  };
}

/** The connector of each method; production refuses the simulated one (no money would move). */
function providerChoice(env: Record<string, string | undefined>, svcEnv: Environment): ProviderChoice {
  const choice: ProviderChoice = {
    pix: oneOf(env, 'PIX_PROVIDER', PIX_PROVIDERS, 'simulated'),
    card: oneOf(env, 'CARD_PROVIDER', CARD_PROVIDERS, 'simulated'),
    boleto: oneOf(env, 'BOLETO_PROVIDER', BOLETO_PROVIDERS, 'simulated'),
  };
  if (svcEnv === 'production') {
    for (const [name, value, real] of [['PIX_PROVIDER', choice.pix, 'bcb-api-pix'], ['CARD_PROVIDER', choice.card, 'cielo'], ['BOLETO_PROVIDER', choice.boleto, 'cielo']] as const) {
      if (value === 'simulated') throw new ConfigError(name, `the simulated provider moves no money and is refused with SVC_ENV=production; set ${real}, or disabled to switch the method off`);
    }
  }
  return choice;
}

function bool(env: Record<string, string | undefined>, name: string): boolean {
  return oneOf(env, name, ['true', 'false'], 'false') === 'true';
}

/** VAULT_MASTER_KEY and VAULT_DATABASE_URL as `reader` may have them: required in production by the vault's readers, refused by the API and the worker. */
function vaultSettings(env: Record<string, string | undefined>, reader: ConfigReader, svcEnv: Environment, databaseUrl: string | undefined) {
  if (reader === 'api' || reader === 'worker') {
    for (const name of VAULT_ONLY) {
      if (env[name]) throw new ConfigError(name, `is read only by svc vault and svc serve; remove it from the environment of svc ${reader}`);
    }
  }
  const vaultMasterKey = base64Key(env, 'VAULT_MASTER_KEY');
  if (!vaultMasterKey && svcEnv === 'production' && (reader === 'vault' || reader === 'serve')) {
    throw new ConfigError('VAULT_MASTER_KEY', 'is required in production (32 random bytes, base64)');
  }
  const vaultDatabaseUrl = url(env, 'VAULT_DATABASE_URL', ['postgres:', 'postgresql:']);
  if (vaultDatabaseUrl && !databaseUrl) throw new ConfigError('VAULT_DATABASE_URL', 'needs DATABASE_URL (the embedded database has one role)');
  return { vaultMasterKey, vaultDatabaseUrl: vaultDatabaseUrl ?? databaseUrl };
}

/** `reader`: who reads it (ConfigReader); `serve`, the process that runs everything, unless told. */
export function loadConfig(env: Record<string, string | undefined>, reader: ConfigReader = 'serve'): Config {
  const svcEnv = oneOf<Environment>(env, 'SVC_ENV', ['sandbox', 'production'], 'sandbox');
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const vaultPort = integer(env, 'VAULT_PORT', 3001, 0, 65535);
  const webhookAllowLoopback = bool(env, 'WEBHOOK_ALLOW_LOOPBACK');
  if (webhookAllowLoopback && svcEnv === 'production') {
    throw new ConfigError('WEBHOOK_ALLOW_LOOPBACK', 'is a test-only setting and is refused with SVC_ENV=production');
  }
  const testPasswordHashes = bool(env, 'DASHBOARD_TEST_PASSWORD_HASHES');
  if (testPasswordHashes && svcEnv === 'production') {
    throw new ConfigError('DASHBOARD_TEST_PASSWORD_HASHES', 'is a test-only setting and is refused with SVC_ENV=production');
  }
  const pixLocationBase = env.PIX_LOCATION_BASE || 'pix.sandbox.svc.example/qr/v2';
  if (!/^[a-z0-9.-]+(\/[A-Za-z0-9._~-]+)*$/.test(pixLocationBase) || pixLocationBase.length > 40) {
    throw new ConfigError('PIX_LOCATION_BASE', 'must be a host and path without scheme, at most 40 characters');
  }
  const retrySchedule = env.WEBHOOK_RETRY_SCHEDULE || (svcEnv === 'production' ? DEFAULT_WEBHOOK_RETRY_SCHEDULE : 'none');
  const webhookRetryScheduleMs = parseRetrySchedule('WEBHOOK_RETRY_SCHEDULE', retrySchedule);
  const webhookDisableAfterMs = parseDisableAfter('WEBHOOK_DISABLE_AFTER', env.WEBHOOK_DISABLE_AFTER || DEFAULT_WEBHOOK_DISABLE_AFTER);
  const webhookSecretsKey = base64Key(env, 'WEBHOOK_SECRETS_KEY');
  const internalKey = base64Key(env, 'INTERNAL_KEY');
  if (svcEnv === 'production') {
    for (const [name, value] of [['WEBHOOK_SECRETS_KEY', webhookSecretsKey], ['INTERNAL_KEY', internalKey]] as const) {
      if (!value) throw new ConfigError(name, 'is required in production (32 random bytes, base64)');
    }
  }
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const { vaultMasterKey, vaultDatabaseUrl } = vaultSettings(env, reader, svcEnv, databaseUrl);
  const providers = providerChoice(env, svcEnv);
  return {
    env: svcEnv,
    // The sandbox is a laptop's: reachable from other machines only when HOST says so.
    host: env.HOST || (svcEnv === 'production' ? '0.0.0.0' : '127.0.0.1'),
    port,
    vaultPort,
    publicVaultUrl: url(env, 'PUBLIC_VAULT_URL', ['http:', 'https:']) ?? `http://localhost:${vaultPort}`,
    publicApiUrl: (url(env, 'PUBLIC_API_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    payPagePerIpPerMinute: integer(env, 'PAY_PAGE_PER_IP_PER_MINUTE', 20, 1, 1_000_000),
    payPagePerLinkPerMinute: integer(env, 'PAY_PAGE_PER_LINK_PER_MINUTE', 120, 1, 1_000_000),
    authFailuresPerIpPerMinute: integer(env, 'AUTH_FAILURES_PER_IP_PER_MINUTE', 30, 1, 1_000_000),
    dashboardSigninPerIpPerMinute: integer(env, 'DASHBOARD_SIGNIN_PER_IP_PER_MINUTE', 20, 1, 1_000_000),
    dashboardRequestsPerSessionPerMinute: integer(env, 'DASHBOARD_REQUESTS_PER_SESSION_PER_MINUTE', 600, 1, 1_000_000),
    demoPerIpPerMinute: integer(env, 'DEMO_PER_IP_PER_MINUTE', 60, 1, 1_000_000),
    trustProxy: proxyAddresses(env, 'TRUST_PROXY'),
    databaseUrl,
    vaultDatabaseUrl,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', DEFAULT_DATABASE_POOL_SIZE, 1, 10_000),
    databaseTimeouts: {
      statementTimeoutMs: integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', DEFAULT_DATABASE_TIMEOUTS.statementTimeoutMs, 0, MAX_TIMEOUT_MS),
      idleInTransactionTimeoutMs: integer(env, 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', DEFAULT_DATABASE_TIMEOUTS.idleInTransactionTimeoutMs, 0, MAX_TIMEOUT_MS),
      queryTimeoutMs: integer(env, 'DATABASE_QUERY_TIMEOUT_MS', DEFAULT_DATABASE_TIMEOUTS.queryTimeoutMs, 0, MAX_TIMEOUT_MS),
      connectTimeoutMs: integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', DEFAULT_DATABASE_TIMEOUTS.connectTimeoutMs, 100, MAX_TIMEOUT_MS),
    },
    dataDir: path.resolve(env.DATA_DIR || './data'),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    rateLimitPerSecond: integer(env, 'RATE_LIMIT_PER_SECOND', svcEnv === 'production' ? 100 : 25, 1, 1_000_000),
    webhookAllowLoopback,
    testPasswordHashes,
    webhookRetryScheduleMs,
    webhookDisableAfterMs,
    webhookSecretsKey,
    vaultMasterKey,
    internalKey,
    vaultInternalUrl: url(env, 'VAULT_INTERNAL_URL', ['http:', 'https:']) ?? `http://127.0.0.1:${vaultPort}`,
    // Generous per address: behind carrier-grade NAT many buyers share one; the per-card limit stops card testing.
    vaultAttemptsPerIpPerMinute: integer(env, 'VAULT_ATTEMPTS_PER_IP_PER_MINUTE', 60, 1, 1_000_000),
    vaultIntentsPerCardPerHour: integer(env, 'VAULT_INTENTS_PER_CARD_PER_HOUR', 10, 1, 1_000_000),
    pixLocationBase,
    pixMerchantCity: 'SAO PAULO',
    providers,
    reconcileIntervalSeconds: integer(env, 'RECONCILE_INTERVAL_SECONDS', 60, 1, 86_400),
    bcbPix: providers.pix === 'bcb-api-pix' ? bcbPixConfig(env) : undefined,
    cielo: providers.card === 'cielo' || providers.boleto === 'cielo' ? cieloConfig(env, providers.boleto === 'cielo') : undefined,
  };
}
