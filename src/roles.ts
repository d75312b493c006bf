/**
 * Roles: `api` (the HTTP API), `vault` (the card vault, on its own port and
 * origin), `worker` (deliveries and the time-driven loop), and `serve` (all
 * three in one process: the embedded default).
 * Each role shuts down cleanly on SIGINT / SIGTERM: stop accepting, finish
 * what runs, close the database.
 */
import { buildApp } from './app.js';
import { describeDemo, ensureDemo } from './bootstrap.js';
import type { Runtime } from './runtime.js';
import { buildVaultApp } from './modules/vault/index.js';
import { startWorker } from './workers/worker.js';

export type Role = 'serve' | 'api' | 'vault' | 'worker';

/** The API tells the PSP where to post (PIX_WEBHOOK_URL); a failure is logged, not fatal: `svc pix register-webhook` retries it. */
function registerProviderNotifications(runtime: Runtime): void {
  const pix = runtime.deps.providers.PIX;
  if (!pix?.registerNotifications || !runtime.config.bcbPix?.webhookUrl) return;
  pix.registerNotifications().then(
    (detail) => runtime.log.info({ provider: pix.name }, detail),
    (err: unknown) => runtime.log.warn({ provider: pix.name, err: (err as Error).message }, 'could not register the Pix webhook; run svc pix register-webhook'),
  );
}

export async function startRole(runtime: Runtime, role: Role): Promise<{ stop(): Promise<void>; apiUrl?: string }> {
  const { config, log } = runtime;
  const stops: (() => Promise<void>)[] = [];
  let apiUrl: string | undefined;
  // Before listening, so that once /readyz answers the demo key file exists.
  const demo = role === 'serve' ? await ensureDemo(runtime) : undefined;

  if (role === 'serve' || role === 'vault') {
    // First, so the API finds an encryption key for the card intents it creates.
    const vault = runtime.vault();
    await vault.keys.ensureCurrent();
    const app = await buildVaultApp({
      env: config.env,
      db: runtime.database.db,
      ...vault,
      internalKey: runtime.deps.internalKey,
      logger: log.child({ role: 'vault' }),
    });
    const address = await app.listen({ port: config.vaultPort, host: config.host });
    log.info({ address, publicUrl: config.publicVaultUrl }, 'vault listening');
    stops.push(() => app.close());
  }

  if (role === 'serve' || role === 'api') {
    const app = await buildApp({ ...runtime.deps, logger: log.child({ role: 'api' }) }, runtime.services);
    const address = await app.listen({ port: config.port, host: config.host });
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
  if (demo && apiUrl) process.stdout.write(`${describeDemo(demo, apiUrl)}\n`);
  return {
    apiUrl,
    async stop() {
      for (const stop of stops) await stop();
      await runtime.close();
    },
  };
}
