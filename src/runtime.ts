/**
 * The runtime of one process: configuration, logger, database (migrated),
 * services. Every role (`svc serve`, `svc api`, `svc worker`) and every
 * operator command opens one. DATA_DIR is made owner-only first
 * (data-dir.ts). With the embedded PGlite, a lock file in DATA_DIR keeps a
 * second process from opening the same data folder.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pino, type Logger } from 'pino';
import { buildServices, type AppDeps } from './app.js';
import type { Services } from './services.js';
import type { Config } from './config.js';
import { MIGRATION_TIMEOUTS, migrate, openDatabase, type DatabaseHandle, type Db } from './db/database.js';
import { isDatabaseUnavailable } from './db/unavailable.js';
import { describeTightened, ownerOnlyDataDir } from './data-dir.js';
import { serializeRequest } from './http/log-serializers.js';
import { aesGcmSealer, type Sealer } from './lib/aes-gcm.js';
import { systemClock } from './lib/clock.js';
import { newId } from './lib/ids.js';
import { buildProviders } from './modules/providers/index.js';
import { TEST_SCRYPT } from './modules/users/index.js';
import { buildVault, grantVaultAccess, httpVaultClient, type Vault } from './modules/vault/index.js';
import { StartError } from './start-error.js';

export interface Runtime {
  config: Config;
  log: Logger;
  database: DatabaseHandle;
  deps: AppDeps;
  services: Services;
  /**
   * The vault's services over the vault's database role (VAULT_DATABASE_URL, granted its tables at
   * this point: vault/access.ts), built on first use: only the vault's roles and commands need them.
   */
  vault(): Promise<Vault>;
  close(): Promise<void>;
}

function makeLogger(config: Config): Logger {
  return pino({
    level: config.logLevel,
    // Secrets never reach a log line, even if a future log call passes a whole request.
    // Query values never reach a log line either (a key put in `?api_key=`).
    serializers: { req: serializeRequest },
    redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.key', '*.secret', '*.token', '*.cvv', '*.number'], censor: '[redacted]' },
  });
}

export { StartError } from './start-error.js';

function lockEmbeddedDatabase(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'pglite.lock');
  try {
    const pid = Number(fs.readFileSync(lockFile, 'utf8'));
    if (pid && pid !== process.pid) {
      process.kill(pid, 0); // throws when that process is gone
      throw new StartError(
        `the embedded database in ${dataDir} is in use by process ${pid}; stop it first, or run with DATABASE_URL (PostgreSQL) to share one database between processes`,
      );
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
  fs.writeFileSync(lockFile, String(process.pid));
  return () => fs.rmSync(lockFile, { force: true });
}

/**
 * A 32-byte key from the environment or, outside production (where the
 * configuration demands the variable), generated once into DATA_DIR with
 * mode 0600 and read back on every later start.
 */
function keyFromEnvOrDataDir(fromEnv: Buffer | undefined, dataDir: string, fileName: string): Buffer {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, fileName);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
}

/** The sealer of secrets at rest: WEBHOOK_SECRETS_KEY, or (sandbox) DATA_DIR/secrets.key. */
function loadSealer(config: Config): Sealer {
  return aesGcmSealer(keyFromEnvOrDataDir(config.webhookSecretsKey, config.dataDir, 'secrets.key'));
}

/** `work` on a PostgreSQL connection of its own as DATABASE_URL's role (the owner of the tables), without the query timeouts (MIGRATION_TIMEOUTS). */
async function asOwner<T>(config: Config, work: (db: Db) => Promise<T>): Promise<T> {
  const owner = await openDatabase({ databaseUrl: config.databaseUrl, poolSize: 1, timeouts: { ...config.databaseTimeouts, ...MIGRATION_TIMEOUTS } });
  try {
    return await work(owner.db);
  } finally {
    await owner.close();
  }
}

/** PostgreSQL: as the owner (asOwner); PGlite: on its only handle. */
async function migrateOnce(config: Config, database: DatabaseHandle): Promise<void> {
  return database.engine === 'postgres' ? asOwner(config, migrate) : migrate(database.db);
}

/**
 * The vault's database: on PostgreSQL its own pool when VAULT_DATABASE_URL differs from DATABASE_URL,
 * its role granted the vault's tables and DATABASE_URL's role refused them (vault/access.ts).
 */
async function openVaultDatabase(config: Config, database: DatabaseHandle, log: Logger): Promise<DatabaseHandle> {
  if (database.engine !== 'postgres') return database;
  const separate = config.vaultDatabaseUrl !== config.databaseUrl;
  const vaultDatabase = separate
    ? await openDatabase({
        databaseUrl: config.vaultDatabaseUrl,
        poolSize: config.databasePoolSize,
        timeouts: config.databaseTimeouts,
        onPoolError: (err) => log.warn({ err: err.message }, 'vault database connection lost'),
      })
    : database;
  try {
    const access = await asOwner(config, (owner) => grantVaultAccess(owner, vaultDatabase.db));
    if (access.kind === 'not-owner' && access.missing.length > 0) {
      throw new StartError(`the vault's database role lacks ${access.missing.join(', ')}: grant them as the owner of schema vault (README, "Going live")`);
    }
    if (access.kind === 'granted' && access.ownerIsSuperuser) {
      log.warn(`DATABASE_URL's role ${access.ownerRole} is a superuser: it still reads the vault's tables; give the API and the worker a role without SUPERUSER`);
    }
  } catch (err) {
    if (separate) await vaultDatabase.close();
    throw err;
  }
  return vaultDatabase;
}

async function migrateWhenReachable(config: Config, database: DatabaseHandle, log: Logger): Promise<void> {
  for (;;) {
    try {
      await migrateOnce(config, database);
      return;
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      log.warn('database unreachable at start; retrying in 2 s');
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  }
}

export async function openRuntime(config: Config, log = makeLogger(config)): Promise<Runtime> {
  const tightened = ownerOnlyDataDir(config.dataDir);
  if (tightened) log.warn(...describeTightened(config.dataDir, tightened));
  const unlock = config.databaseUrl ? () => {} : lockEmbeddedDatabase(config.dataDir);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    timeouts: config.databaseTimeouts,
    onPoolError: (err) => log.warn({ err: err.message }, 'database connection lost'),
  });
  // PGlite never fsyncs (Emscripten's file system): fine for a laptop, not for real money (README, "What the embedded database promises").
  if (database.engine === 'pglite' && config.env === 'production') {
    log.warn('SVC_ENV=production on the embedded database: a power loss can lose or corrupt recent payments; set DATABASE_URL');
  }
  await migrateWhenReachable(config, database, log);
  const clock = systemClock;
  const providers = buildProviders(config, { db: database.db, clock });
  const internalKey = keyFromEnvOrDataDir(config.internalKey, config.dataDir, 'internal.key');
  const deps: AppDeps = {
    config,
    db: database.db,
    clock,
    newId,
    providers,
    sealer: loadSealer(config),
    internalKey,
    vault: httpVaultClient(config.vaultInternalUrl, internalKey, clock),
    logger: log,
    ...(config.testPasswordHashes ? { passwordParams: TEST_SCRYPT } : {}),
  };
  let vault: Promise<Vault> | undefined;
  let vaultDatabase: DatabaseHandle | undefined;
  const openVault = async (): Promise<Vault> => {
    const handle = await openVaultDatabase(config, database, log);
    if (handle !== database) vaultDatabase = handle;
    // On its own role the vault records its card sales through a card connector of its own.
    const acquirer =
      handle === database ? providers.CREDIT_CARD : buildProviders({ ...config, providers: { ...config.providers, pix: 'disabled', boleto: 'disabled' } }, { db: handle.db, clock }).CREDIT_CARD;
    return buildVault({
      db: handle.db,
      clock,
      newId,
      acquirer,
      masterKey: keyFromEnvOrDataDir(config.vaultMasterKey, config.dataDir, 'vault-master.key'),
      internalKey,
      attemptsPerIpPerMinute: config.vaultAttemptsPerIpPerMinute,
      intentsPerCardPerHour: config.vaultIntentsPerCardPerHour,
    });
  };
  return {
    config,
    log,
    database,
    deps,
    services: buildServices(deps),
    vault() {
      vault ??= openVault();
      return vault;
    },
    async close() {
      await vaultDatabase?.close();
      await database.close();
      unlock();
    },
  };
}
