#!/usr/bin/env node
// Builds the browser files into dist/web/, the folder src/http/web-assets.ts
// serves (part of `npm run build`, so `npm test`, `npm install` and CI get it).
//
// - Each script is bundled by esbuild from its ES modules under web/ into one
//   classic script (an IIFE): the pages' CSP allows only files from their own
//   origin, no inline code and no eval, and esbuild's output needs neither.
//   The hosted fields bundle takes its card-brand table straight from
//   src/modules/vault/card-brands.ts, so browser and server cannot drift.
// - Stylesheets are bundled (their @import of the shared look inlined);
//   HTML is copied as it is.
//
// platform 'browser' makes the build fail if a bundled module reaches for a
// Node built-in (node:crypto, node:fs, ...): browser code stays browser-safe.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = path.join(ROOT, 'web');
const OUT = path.join(ROOT, 'dist', 'web');

/** Served path (under dist/web) → entry module (under web). */
const SCRIPTS = {
  'vault/sdk.js': 'vault/sdk.js',
  'vault/hosted-fields.js': 'vault/hosted-fields/main.js',
  'demo/checkout.js': 'demo/checkout/main.js',
  'pay/page.js': 'pay/main.js',
  'pay/receipt.js': 'pay/receipt.js',
  'docs/docs.js': 'docs/main.js',
  'dashboard/dashboard.js': 'dashboard/main.tsx',
};

const COPIED = ['vault/hosted-fields.html', 'vault/hosted-fields.css', 'demo/checkout.html', 'pay/page.html', 'pay/receipt.html', 'docs/page.html', 'dashboard/page.html'];

/** Served path → entry stylesheet: bundled, so both checkout pages @import the shared look (web/shared/base.css). */
const STYLES = {
  'demo/checkout.css': 'demo/checkout.css',
  'pay/page.css': 'pay/page.css',
  'docs/docs.css': 'docs/docs.css',
  'dashboard/dashboard.css': 'dashboard/dashboard.css',
};

// Browsers with ES2020 (Chrome/Edge 80+, Firefox 78+, Safari 14+); the code
// also uses Unicode property escapes in regular expressions (ES2018).
const TARGET = ['es2020'];

fs.rmSync(OUT, { recursive: true, force: true });

/** The one-line /*! ... *\/ notice an entry starts with (the SDK's name and version), or undefined. */
function noticeOf(file) {
  const first = fs.readFileSync(file, 'utf8').split('\n', 1)[0];
  return first.startsWith('/*!') ? first : undefined;
}

await Promise.all(
  Object.entries(SCRIPTS).map(([served, entry]) => {
    const notice = noticeOf(path.join(SOURCE, entry));
    return esbuild.build({
      entryPoints: [path.join(SOURCE, entry)],
      outfile: path.join(OUT, served),
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: TARGET,
      minify: true,
      // An entry's notice goes first in its bundle, before the modules it imports (inline, it would follow them).
      ...(notice ? { banner: { js: notice }, legalComments: 'none' } : { legalComments: 'inline' }),
      charset: 'utf8',
      logLevel: 'warning',
      // The dashboard is Preact with TSX (web/dashboard/tsconfig.json): JSX compiled to preact's jsx() calls.
      ...(entry.endsWith('.tsx') ? { jsx: 'automatic', jsxImportSource: 'preact', tsconfig: path.join(SOURCE, 'dashboard', 'tsconfig.json') } : {}),
    });
  }),
);

await Promise.all(
  Object.entries(STYLES).map(([served, entry]) =>
    esbuild.build({
      entryPoints: [path.join(SOURCE, entry)],
      outfile: path.join(OUT, served),
      bundle: true,
      target: ['chrome80', 'firefox78', 'safari14'],
      charset: 'utf8',
      logLevel: 'warning',
    }),
  ),
);

for (const file of COPIED) {
  fs.mkdirSync(path.dirname(path.join(OUT, file)), { recursive: true });
  fs.copyFileSync(path.join(SOURCE, file), path.join(OUT, file));
}
