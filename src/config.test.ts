import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { loadConfig } from './config.js';
import { PRODUCTION, refusal } from '../test/helpers/config-env.js';

test('an empty environment gives the documented defaults', () => {
  const config = loadConfig({});
  assert.equal(config.env, 'sandbox');
  assert.equal(config.port, 3000);
  assert.equal(config.vaultPort, 3001);
  assert.equal(config.publicVaultUrl, 'http://localhost:3001');
  assert.equal(config.databaseUrl, undefined);
  assert.equal(config.dataDir, path.resolve('./data'));
  assert.equal(config.redisUrl, undefined);
  assert.equal(config.logLevel, 'info');
  assert.equal(config.rateLimitPerSecond, 25);
  assert.equal(config.webhookAllowLoopback, false);
});

test('empty strings count as unset', () => {
  const config = loadConfig({ PORT: '', SVC_ENV: '', LOG_LEVEL: '', DATABASE_URL: '' });
  assert.equal(config.port, 3000);
  assert.equal(config.env, 'sandbox');
  assert.equal(config.databaseUrl, undefined);
});

test('valid values are read', () => {
  const config = loadConfig({
    ...PRODUCTION,
    PORT: '8080',
    VAULT_PORT: '8081',
    DATABASE_URL: 'postgres://u@db:5432/svc',
    REDIS_URL: 'redis://cache:6379',
    LOG_LEVEL: 'warn',
    DATA_DIR: '/tmp/svc-data',
    RATE_LIMIT_PER_SECOND: '7',
  });
  assert.equal(config.env, 'production');
  assert.equal(config.port, 8080);
  assert.equal(config.vaultPort, 8081);
  assert.equal(config.publicVaultUrl, 'http://localhost:8081');
  assert.equal(config.databaseUrl, 'postgres://u@db:5432/svc');
  assert.equal(config.redisUrl, 'redis://cache:6379');
  assert.equal(config.logLevel, 'warn');
  assert.equal(config.dataDir, '/tmp/svc-data');
  assert.equal(config.rateLimitPerSecond, 7);
});

test('the rate limit defaults to 25 per second in the sandbox and 100 in production', () => {
  assert.equal(loadConfig({ SVC_ENV: 'sandbox' }).rateLimitPerSecond, 25);
  assert.equal(loadConfig(PRODUCTION).rateLimitPerSecond, 100);
});

test('HOST: the sandbox listens on loopback only, production on every interface (as before); a set HOST wins in both', () => {
  assert.equal(loadConfig({}).host, '127.0.0.1');
  assert.equal(loadConfig(PRODUCTION).host, '0.0.0.0');
  assert.equal(loadConfig({ HOST: '0.0.0.0' }).host, '0.0.0.0');
  assert.equal(loadConfig({ ...PRODUCTION, HOST: '10.1.2.3' }).host, '10.1.2.3');
});

test('the per-address limits of failed authentications (30), of the demo routes (60) and of dashboard sign-ins (20) per minute are configurable', () => {
  const defaults = loadConfig({});
  assert.equal(defaults.authFailuresPerIpPerMinute, 30);
  assert.equal(defaults.demoPerIpPerMinute, 60);
  assert.equal(defaults.dashboardSigninPerIpPerMinute, 20);
  const set = loadConfig({ AUTH_FAILURES_PER_IP_PER_MINUTE: '5', DEMO_PER_IP_PER_MINUTE: '7', DASHBOARD_SIGNIN_PER_IP_PER_MINUTE: '9' });
  assert.equal(set.authFailuresPerIpPerMinute, 5);
  assert.equal(set.demoPerIpPerMinute, 7);
  assert.equal(set.dashboardSigninPerIpPerMinute, 9);
  for (const value of ['0', 'x', '-3']) {
    refusal({ AUTH_FAILURES_PER_IP_PER_MINUTE: value }, 'AUTH_FAILURES_PER_IP_PER_MINUTE');
    refusal({ DEMO_PER_IP_PER_MINUTE: value }, 'DEMO_PER_IP_PER_MINUTE');
    refusal({ DASHBOARD_SIGNIN_PER_IP_PER_MINUTE: value }, 'DASHBOARD_SIGNIN_PER_IP_PER_MINUTE');
  }
});

test('PUBLIC_API_URL: defaults to localhost and the API port, loses a trailing slash, must be http(s)', () => {
  assert.equal(loadConfig({}).publicApiUrl, 'http://localhost:3000');
  assert.equal(loadConfig({ PORT: '8080' }).publicApiUrl, 'http://localhost:8080');
  assert.equal(loadConfig({ PUBLIC_API_URL: 'https://pagar.loja.example/' }).publicApiUrl, 'https://pagar.loja.example');
  assert.throws(() => loadConfig({ PUBLIC_API_URL: 'ftp://x' }), /PUBLIC_API_URL/);
});

test('TRUST_PROXY: unset trusts no proxy; a list of addresses and CIDR ranges is read; anything else is refused naming it', () => {
  assert.equal(loadConfig({}).trustProxy, false);
  assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy, ['10.0.0.0/8', '127.0.0.1', '::1']);
  for (const value of ['loopback', '10.0.0.0/33', '300.1.1.1', '10.0.0.1,,x']) refusal({ TRUST_PROXY: value }, 'TRUST_PROXY');
});

test('a bad PORT is refused naming PORT', () => {
  for (const value of ['abc', '-1', '3000.5', '65536', ' 80']) refusal({ PORT: value }, 'PORT');
  refusal({ VAULT_PORT: 'x' }, 'VAULT_PORT');
});

test('a bad SVC_ENV is refused naming SVC_ENV', () => {
  for (const value of ['prod', 'test', 'Sandbox']) refusal({ SVC_ENV: value }, 'SVC_ENV');
});

test('a bad DATABASE_URL is refused naming DATABASE_URL', () => {
  refusal({ DATABASE_URL: 'not a url' }, 'DATABASE_URL');
  refusal({ DATABASE_URL: 'mysql://u@db/svc' }, 'DATABASE_URL');
  assert.equal(loadConfig({ DATABASE_URL: 'postgresql://u@db/svc' }).databaseUrl, 'postgresql://u@db/svc');
});

test('the database pool and timeouts default to 20 connections, 5 s server timeouts, 6 s query and 3 s connect timeouts', () => {
  const config = loadConfig({});
  assert.equal(config.databasePoolSize, 20);
  assert.deepEqual(config.databaseTimeouts, { statementTimeoutMs: 5_000, idleInTransactionTimeoutMs: 5_000, queryTimeoutMs: 6_000, connectTimeoutMs: 3_000 });
  const tuned = loadConfig({
    DATABASE_POOL_SIZE: '8',
    DATABASE_STATEMENT_TIMEOUT_MS: '0',
    DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '2000',
    DATABASE_QUERY_TIMEOUT_MS: '2500',
    DATABASE_CONNECT_TIMEOUT_MS: '1000',
  });
  assert.equal(tuned.databasePoolSize, 8);
  assert.deepEqual(tuned.databaseTimeouts, { statementTimeoutMs: 0, idleInTransactionTimeoutMs: 2_000, queryTimeoutMs: 2_500, connectTimeoutMs: 1_000 });
});

test('a bad DATABASE_POOL_SIZE or database timeout is refused naming it', () => {
  for (const value of ['0', 'x', '-1', '10001']) refusal({ DATABASE_POOL_SIZE: value }, 'DATABASE_POOL_SIZE');
  for (const name of ['DATABASE_STATEMENT_TIMEOUT_MS', 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', 'DATABASE_QUERY_TIMEOUT_MS', 'DATABASE_CONNECT_TIMEOUT_MS']) {
    for (const value of ['5s', '-1', '3600001']) refusal({ [name]: value }, name);
  }
  refusal({ DATABASE_CONNECT_TIMEOUT_MS: '0' }, 'DATABASE_CONNECT_TIMEOUT_MS');
});

test('a bad LOG_LEVEL is refused naming LOG_LEVEL', () => {
  for (const value of ['verbose', 'INFO']) refusal({ LOG_LEVEL: value }, 'LOG_LEVEL');
});

test('a bad RATE_LIMIT_PER_SECOND is refused naming RATE_LIMIT_PER_SECOND', () => {
  for (const value of ['0', 'ten', '2.5', '1000001']) refusal({ RATE_LIMIT_PER_SECOND: value }, 'RATE_LIMIT_PER_SECOND');
});

test('a bad REDIS_URL or PUBLIC_VAULT_URL is refused naming it', () => {
  refusal({ REDIS_URL: 'http://cache' }, 'REDIS_URL');
  refusal({ PUBLIC_VAULT_URL: 'ftp://vault' }, 'PUBLIC_VAULT_URL');
});

test('DASHBOARD_TEST_PASSWORD_HASHES is allowed in the sandbox and refused in production', () => {
  assert.equal(loadConfig({}).testPasswordHashes, false);
  assert.equal(loadConfig({ DASHBOARD_TEST_PASSWORD_HASHES: 'true' }).testPasswordHashes, true);
  assert.equal(loadConfig({ ...PRODUCTION, DASHBOARD_TEST_PASSWORD_HASHES: 'false' }).testPasswordHashes, false);
  refusal({ ...PRODUCTION, DASHBOARD_TEST_PASSWORD_HASHES: 'true' }, 'DASHBOARD_TEST_PASSWORD_HASHES');
});

test('WEBHOOK_ALLOW_LOOPBACK is allowed in the sandbox and refused in production', () => {
  assert.equal(loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'true' }).webhookAllowLoopback, true);
  assert.equal(loadConfig({ ...PRODUCTION, WEBHOOK_ALLOW_LOOPBACK: 'false' }).webhookAllowLoopback, false);
  refusal({ ...PRODUCTION, WEBHOOK_ALLOW_LOOPBACK: 'true' }, 'WEBHOOK_ALLOW_LOOPBACK');
  refusal({ WEBHOOK_ALLOW_LOOPBACK: 'yes' }, 'WEBHOOK_ALLOW_LOOPBACK');
});

test('production without WEBHOOK_SECRETS_KEY, or with a key that is not 32 bytes of base64, is refused naming it', () => {
  refusal({ SVC_ENV: 'production' }, 'WEBHOOK_SECRETS_KEY');
  refusal({ ...PRODUCTION, WEBHOOK_SECRETS_KEY: Buffer.alloc(16).toString('base64') }, 'WEBHOOK_SECRETS_KEY');
  refusal({ WEBHOOK_SECRETS_KEY: 'not base64!' }, 'WEBHOOK_SECRETS_KEY');
  assert.deepEqual(loadConfig(PRODUCTION).webhookSecretsKey, Buffer.alloc(32, 7));
});

test('production without VAULT_MASTER_KEY or INTERNAL_KEY is refused naming the missing one', () => {
  const { VAULT_MASTER_KEY: _vault, ...withoutVault } = PRODUCTION;
  refusal(withoutVault, 'VAULT_MASTER_KEY');
  const { INTERNAL_KEY: _internal, ...withoutInternal } = PRODUCTION;
  refusal(withoutInternal, 'INTERNAL_KEY');
  refusal({ ...PRODUCTION, VAULT_MASTER_KEY: 'short' }, 'VAULT_MASTER_KEY');
  assert.deepEqual(loadConfig(PRODUCTION).vaultMasterKey, Buffer.alloc(32, 8));
  assert.equal(loadConfig({}).webhookSecretsKey, undefined);
});

test('VAULT_MASTER_KEY: svc vault and svc serve need it in production; svc api and svc worker start without it and refuse it, in any environment', () => {
  const { VAULT_MASTER_KEY: _vault, ...withoutVault } = PRODUCTION;
  for (const reader of ['api', 'worker'] as const) {
    assert.equal(loadConfig(withoutVault, reader).vaultMasterKey, undefined, `${reader} starts without it`);
    refusal(PRODUCTION, 'VAULT_MASTER_KEY', reader, `is read only by svc vault and svc serve; remove it from the environment of svc ${reader}`);
    refusal({ VAULT_MASTER_KEY: PRODUCTION.VAULT_MASTER_KEY }, 'VAULT_MASTER_KEY', reader);
  }
  for (const reader of ['vault', 'serve'] as const) {
    refusal(withoutVault, 'VAULT_MASTER_KEY', reader, 'is required in production');
    assert.deepEqual(loadConfig(PRODUCTION, reader).vaultMasterKey, Buffer.alloc(32, 8));
  }
  // Operator commands other than the vault's neither need nor refuse it (they run where the operator is).
  assert.equal(loadConfig(withoutVault, 'operator').vaultMasterKey, undefined);
  assert.deepEqual(loadConfig(PRODUCTION, 'operator').vaultMasterKey, Buffer.alloc(32, 8));
});

test("VAULT_DATABASE_URL: DATABASE_URL's by default, the vault's own when set; needs DATABASE_URL; refused by svc api and svc worker", () => {
  const DATABASE_URL = 'postgres://svc_api@db.example:5432/svc';
  const VAULT_DATABASE_URL = 'postgres://svc_vault@db.example:5432/svc';
  assert.equal(loadConfig({ DATABASE_URL }).vaultDatabaseUrl, DATABASE_URL);
  assert.equal(loadConfig({}).vaultDatabaseUrl, undefined, 'the embedded database');
  assert.equal(loadConfig({ DATABASE_URL, VAULT_DATABASE_URL }, 'vault').vaultDatabaseUrl, VAULT_DATABASE_URL);
  refusal({ VAULT_DATABASE_URL }, 'VAULT_DATABASE_URL', 'vault', 'needs DATABASE_URL');
  refusal({ DATABASE_URL, VAULT_DATABASE_URL: 'mysql://x' }, 'VAULT_DATABASE_URL', 'vault');
  for (const reader of ['api', 'worker'] as const) refusal({ DATABASE_URL, VAULT_DATABASE_URL }, 'VAULT_DATABASE_URL', reader, 'is read only by svc vault and svc serve');
});

test('loadConfig reads only the object it is given', () => {
  const saved = process.env.PORT;
  process.env.PORT = 'not-a-port';
  try {
    assert.equal(loadConfig({}).port, 3000);
  } finally {
    if (saved === undefined) delete process.env.PORT;
    else process.env.PORT = saved;
  }
});

test('WEBHOOK_RETRY_SCHEDULE: production retries 1m,5m,30m,2h,12h by default, the sandbox sends once, a set value is read', () => {
  assert.deepEqual(loadConfig(PRODUCTION).webhookRetryScheduleMs, [60_000, 300_000, 1_800_000, 7_200_000, 43_200_000]);
  assert.deepEqual(loadConfig({}).webhookRetryScheduleMs, []);
  assert.deepEqual(loadConfig({ ...PRODUCTION, WEBHOOK_RETRY_SCHEDULE: '30s, 10m,1d' }).webhookRetryScheduleMs, [30_000, 600_000, 86_400_000]);
  assert.deepEqual(loadConfig({ ...PRODUCTION, WEBHOOK_RETRY_SCHEDULE: 'none' }).webhookRetryScheduleMs, []);
  assert.deepEqual(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1m' }).webhookRetryScheduleMs, [60_000]);
});

test('WEBHOOK_RETRY_SCHEDULE: a malformed schedule is refused naming the variable', () => {
  for (const value of ['1x', '5', '1m,,5m', '0s', '8d', '-1m', '1.5m', Array(21).fill('1m').join(',')]) {
    refusal({ ...PRODUCTION, WEBHOOK_RETRY_SCHEDULE: value }, 'WEBHOOK_RETRY_SCHEDULE');
  }
});

test('the vault limits: 60 tokenize attempts per address per minute and 10 intents per card per hour by default, both configurable', () => {
  const defaults = loadConfig({});
  assert.equal(defaults.vaultAttemptsPerIpPerMinute, 60);
  assert.equal(defaults.vaultIntentsPerCardPerHour, 10);
  const set = loadConfig({ VAULT_ATTEMPTS_PER_IP_PER_MINUTE: '600', VAULT_INTENTS_PER_CARD_PER_HOUR: '3' });
  assert.equal(set.vaultAttemptsPerIpPerMinute, 600);
  assert.equal(set.vaultIntentsPerCardPerHour, 3);
  assert.throws(() => loadConfig({ VAULT_INTENTS_PER_CARD_PER_HOUR: '0' }), /VAULT_INTENTS_PER_CARD_PER_HOUR/);
});

test('DASHBOARD_REQUESTS_PER_SESSION_PER_MINUTE: 600 by default, a whole number from 1', () => {
  assert.equal(loadConfig({}).dashboardRequestsPerSessionPerMinute, 600);
  assert.equal(loadConfig({ DASHBOARD_REQUESTS_PER_SESSION_PER_MINUTE: '42' }).dashboardRequestsPerSessionPerMinute, 42);
  for (const value of ['0', 'x', '-3', '1.5', '1000001']) refusal({ DASHBOARD_REQUESTS_PER_SESSION_PER_MINUTE: value }, 'DASHBOARD_REQUESTS_PER_SESSION_PER_MINUTE');
});
