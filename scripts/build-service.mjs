#!/usr/bin/env node
// Builds the service into dist/ (bin/svc.js runs dist/cli.js): src/ bundled by
// esbuild (scripts/bundle.mjs), one file per entry and the code they share in
// dist/chunks/, source maps beside them. Types are checked by `npm run
// typecheck`, not here. A command loads only the chunks it imports: `svc
// listen` none of the service's modules, a role all of its own.
//
// Libraries left out of the bundle and loaded from node_modules: those that
// find files beside their own code (PGlite's WebAssembly, pino's transports,
// ioredis' and @fastify/swagger's package.json).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundle } from './bundle.mjs';

export const SERVICE_UNBUNDLED = new Set(['@electric-sql/pglite', '@fastify/swagger', 'ioredis', 'pino']);

/** bin/svc.js's entry, and the modules the bench scripts (scripts/bench/) import from dist/ themselves. */
const ENTRIES = ['cli', 'app', 'config', 'db/database', 'db/migrations/022-daily-totals', 'lib/aes-gcm', 'lib/clock', 'lib/ids', 'modules/vault/card-brands'].map((name) => `src/${name}.ts`);

/** Writes dist/ but its browser bundles (dist/web, scripts/build-web.mjs); resolves when written, rejects on a build error. */
export async function buildService() {
  // What an earlier build left (another layout's files) goes.
  if (fs.existsSync('dist')) for (const name of fs.readdirSync('dist')) if (name !== 'web') fs.rmSync(path.join('dist', name), { recursive: true, force: true });
  await bundle({ entryPoints: ENTRIES, outdir: 'dist', outbase: 'src', unbundled: SERVICE_UNBUNDLED });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await buildService();
