/**
 * The runtime of one process: configuration, logger, database (migrated),
 * services. Every role (`svc serve`, `svc api`, `svc worker`) and every
 * operator command opens one. With the embedded PGlite, a lock file in
 * DATA_DIR keeps a second process from opening the same data folder.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pino, type Logger } from 'pino';
import { buildServices, type AppDeps, type Services } from './app.js';
import type { Config } from './config.js';
import { migrate, openDatabase, type DatabaseHandle } from './db/database.js';
import { isDatabaseUnavailable } from './db/unavailable.js';
import { aesGcmSealer, type Sealer } from './lib/aes-gcm.js';
import { systemClock } from './lib/clock.js';
import { newId } from './lib/ids.js';
import { SimulatedAcquirer } from './modules/acquirer/index.js';

export interface Runtime {
  config: Config;
  log: Logger;
  database: DatabaseHandle;
  deps: AppDeps;
  services: Services;
  close(): Promise<void>;
}

export function makeLogger(config: Config): Logger {
  return pino({
    level: config.logLevel,
    // Secrets never reach a log line, even if a future log call passes a whole request.
    redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.key', '*.secret', '*.token', '*.cvv', '*.number'], censor: '[redacted]' },
  });
}

function lockEmbeddedDatabase(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'pglite.lock');
  try {
    const pid = Number(fs.readFileSync(lockFile, 'utf8'));
    if (pid && pid !== process.pid) {
      process.kill(pid, 0); // throws when that process is gone
      throw new Error(
        `the embedded database in ${dataDir} is in use by process ${pid}; stop it first, or run with DATABASE_URL (PostgreSQL) to share one database between processes`,
      );
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
  fs.writeFileSync(lockFile, String(process.pid));
  return () => fs.rmSync(lockFile, { force: true });
}

/** The key sealing secrets at rest: from WEBHOOK_SECRETS_KEY, or (sandbox) generated once into DATA_DIR. */
export function loadSealer(config: Config): Sealer {
  if (config.webhookSecretsKey) return aesGcmSealer(config.webhookSecretsKey);
  const file = path.join(config.dataDir, 'secrets.key');
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return aesGcmSealer(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'));
}

async function migrateWhenReachable(database: DatabaseHandle, log: Logger): Promise<void> {
  for (;;) {
    try {
      await migrate(database.db);
      return;
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      log.warn('database unreachable at start; retrying in 2 s');
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  }
}

export async function openRuntime(config: Config, log = makeLogger(config)): Promise<Runtime> {
  const unlock = config.databaseUrl ? () => {} : lockEmbeddedDatabase(config.dataDir);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    onPoolError: (err) => log.warn({ err: err.message }, 'database connection lost'),
  });
  await migrateWhenReachable(database, log);
  const clock = systemClock;
  const deps: AppDeps = {
    config,
    db: database.db,
    clock,
    newId,
    acquirer: new SimulatedAcquirer(database.db, clock),
    sealer: loadSealer(config),
  };
  return {
    config,
    log,
    database,
    deps,
    services: buildServices(deps),
    async close() {
      await database.close();
      unlock();
    },
  };
}
