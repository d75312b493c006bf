#!/usr/bin/env node
// Runs the whole suite with node's test runner (TypeScript through tsx).
// Database tests run on PGlite always and on PostgreSQL when TEST_DATABASE_URL
// is set; browser tests need Debian's Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

function collect(dir, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) collect(full, out);
    else if (entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const only = process.argv.slice(2);
const files = only.length > 0 ? only : [...collect('src'), ...collect('test')].sort();

if (!process.env.TEST_DATABASE_URL) {
  console.log('PostgreSQL pass did not run: TEST_DATABASE_URL is not set, database tests ran on PGlite only.');
}

const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', ...files],
  { stdio: 'inherit', env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' } },
);
process.exit(result.status ?? 1);
