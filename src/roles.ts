/**
 * Roles: `api` (the HTTP API), `vault` (the card vault, on its own port and
 * origin), `worker` (deliveries and the time-driven loop), and `serve` (all
 * three in one process: the embedded default).
 * Each role shuts down cleanly on SIGINT / SIGTERM: stop accepting, finish
 * what runs, close the database.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { describeDemo, ensureDemo } from './bootstrap.js';
import { SVC } from './cli/invocation.js';
import { StartError, type Runtime } from './runtime.js';
import { serveOperatorCommands } from './operator/index.js';
import { buildVaultApp } from './vault-app.js';
import { startVaultSweep } from './workers/sweep-vault.js';
import { startWorker } from './workers/worker.js';

export type Role = 'serve' | 'api' | 'vault' | 'worker';

/** The API tells the PSP where to post (PIX_WEBHOOK_URL); a failure is logged, not fatal: `svc pix register-webhook` retries it. */
function registerProviderNotifications(runtime: Runtime): void {
  const pix = runtime.deps.providers.PIX;
  if (!pix?.registerNotifications || !runtime.config.bcbPix?.webhookUrl) return;
  pix.registerNotifications().then(
    (detail) => runtime.log.info({ provider: pix.name }, detail),
    (err: unknown) => runtime.log.warn({ provider: pix.name, err: (err as Error).message }, `could not register the Pix webhook; run ${SVC} pix register-webhook`),
  );
}

/** Listens on `port`, or closes `app` and says which variable chooses another port. */
async function listen(app: FastifyInstance, port: number, host: string, variable: 'PORT' | 'VAULT_PORT'): Promise<string> {
  try {
    return await app.listen({ port, host });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw err;
    await app.close();
    throw new StartError(code === 'EADDRINUSE' ? `port ${port} is in use; set ${variable} to another port` : `port ${port} needs privileges this user has not; set ${variable} to a port above 1023`);
  }
}

export async function startRole(runtime: Runtime, role: Role): Promise<{ stop(): Promise<void>; apiUrl?: string }> {
  const stops: (() => Promise<void>)[] = [];
  try {
    return await start(runtime, role, stops);
  } catch (err) {
    // What did start stops again (a vault already listening when the API's port is taken); the caller closes the runtime.
    for (const stop of stops) await stop();
    throw err;
  }
}

async function start(runtime: Runtime, role: Role, stops: (() => Promise<void>)[]): Promise<{ stop(): Promise<void>; apiUrl?: string }> {
  const { config, log } = runtime;
  let apiUrl: string | undefined;
  // Before listening, so that once /readyz answers the demo key file exists.
  const demo = role === 'serve' ? await ensureDemo(runtime) : undefined;

  if (role === 'serve' || role === 'vault') {
    // First, so the API finds an encryption key for the card intents it creates.
    const vault = await runtime.vault();
    await vault.keys.ensureCurrent();
    const app = await buildVaultApp({
      env: config.env,
      ...vault,
      internalKey: runtime.deps.internalKey,
      trustProxy: config.trustProxy,
      publicUrl: config.publicVaultUrl,
      logger: log.child({ role: 'vault' }),
    });
    const address = await listen(app, config.vaultPort, config.host, 'VAULT_PORT');
    log.info({ address, publicUrl: config.publicVaultUrl }, 'vault listening');
    stops.push(() => app.close());
    const sweep = startVaultSweep(vault, runtime.deps.clock, log.child({ role: 'vault' }));
    stops.push(() => sweep.stop());
  }

  if (role === 'serve' || role === 'api') {
    const app = await buildApp({ ...runtime.deps, logger: log.child({ role: 'api' }) }, runtime.services);
    const address = await listen(app, config.port, config.host, 'PORT');
    apiUrl = `http://localhost:${new URL(address).port}`;
    log.info({ address, env: config.env, database: runtime.database.engine }, 'API listening');
    registerProviderNotifications(runtime);
    stops.push(() => app.close());
  }
  if (role === 'serve' || role === 'worker') {
    const worker = startWorker({
      db: runtime.database.db,
      clock: runtime.deps.clock,
      services: runtime.services,
      log: log.child({ role: 'worker' }),
    });
    stops.push(() => worker.stop());
  }
  // Last: an operator command sent while the process starts finds no socket and is told the database is in use.
  const operator = await serveOperatorCommands(runtime);
  if (operator) stops.unshift(() => operator.close());
  if (demo && apiUrl) process.stdout.write(`${describeDemo(demo, apiUrl)}\n`);
  return {
    apiUrl,
    async stop() {
      for (const stop of stops) await stop();
      await runtime.close();
    },
  };
}
