/**
 * The API's and the vault's OpenAPI documents, built in-process without a
 * database or a listening socket: the OpenAPI lint (`npm run lint`) and the
 * SDK's type generation (packages/sdk/scripts/generate.mjs) read the
 * documents the apps would serve, from the same route schemas, without
 * starting a server (through scripts/openapi-documents.mjs).
 *
 * Both apps are built as `svc serve` builds them in the sandbox, over a
 * database handle that never connects (Kysely's DummyDriver: building a route
 * runs no query), except that no payment provider is configured: the routes
 * where a PSP or an acquirer posts its notifications
 * (/v2/provider-notifications/…, for providers, not for sellers) are absent.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { unconnectedDatabase } from './db/database.js';
import { aesGcmSealer } from './lib/aes-gcm.js';
import { systemClock } from './lib/clock.js';
import { newId } from './lib/ids.js';
import { buildVault } from './modules/vault/index.js';
import { buildVaultApp } from './vault-app.js';

export interface OpenApiDocuments {
  api: unknown;
  vault: unknown;
}

async function documentOf(app: FastifyInstance): Promise<unknown> {
  await app.ready();
  const document = app.swagger();
  await app.close();
  return document;
}

/** The documents of the sandbox's apps (its routes are a superset of production's, provider notifications aside). */
export async function openApiDocuments(): Promise<OpenApiDocuments> {
  const config = loadConfig({});
  const db = unconnectedDatabase();
  const internalKey = randomBytes(32);
  const clock = systemClock;
  const vault = buildVault({
    db,
    clock,
    newId,
    acquirer: undefined,
    masterKey: randomBytes(32),
    internalKey,
    attemptsPerIpPerMinute: config.vaultAttemptsPerIpPerMinute,
    intentsPerCardPerHour: config.vaultIntentsPerCardPerHour,
  });
  const vaultApp = await buildVaultApp({ env: config.env, publicUrl: config.publicVaultUrl, ...vault, internalKey });
  const api = await buildApp({ config, db, clock, newId, providers: {}, sealer: aesGcmSealer(randomBytes(32)), internalKey, vault: vault.client });
  return { api: await documentOf(api), vault: await documentOf(vaultApp) };
}
