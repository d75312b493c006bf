// The API's and the vault's OpenAPI documents, built in-process by
// src/openapi-documents.ts (no database, no server), for the scripts that read
// them: the lint (lint-openapi.mjs) and the SDK's types (packages/sdk/scripts/generate.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `{api, vault}`: the documents the sandbox's apps would serve. */
export async function openApiDocuments() {
  // Inside node_modules, so the bundle's packages resolve from the project; one file per process.
  const bundle = path.join(ROOT, 'node_modules', '.cache', 'svc-openapi', `documents-${process.pid}.mjs`);
  await build({ entryPoints: [path.join(ROOT, 'src', 'openapi-documents.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: bundle, logLevel: 'warning' });
  try {
    const module = await import(pathToFileURL(bundle).href);
    return await module.openApiDocuments();
  } finally {
    fs.rmSync(bundle, { force: true });
  }
}
