#!/usr/bin/env node
// Runs the whole suite with node's test runner (TypeScript through tsx).
// Database tests run on PGlite always and on PostgreSQL when TEST_DATABASE_URL
// is set; browser tests need Debian's Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
//
// The test databases are migrated once here, before the runner starts: a PGlite
// snapshot in a temporary folder and, with TEST_DATABASE_URL, a template
// database with a unique name (see test/helpers/db.ts). Both are removed when
// the run ends, however it ends.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';

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
// The longest files start first (end-to-end and browser tests spawn servers and
// Chromium), so the short unit and route files fill the cores at the end
// instead of a long file running alone after everything else has finished.
const weight = (file) => (file.includes('/e2e/') || file.endsWith('.browser.test.ts') ? 0 : file.startsWith('test') ? 1 : 2);
let files = only.length > 0 ? only : [...collect('src'), ...collect('test')].sort((a, b) => weight(a) - weight(b) || a.localeCompare(b));

if (!process.env.TEST_DATABASE_URL) {
  console.log('PostgreSQL pass did not run: TEST_DATABASE_URL is not set, database tests ran on PGlite only.');
}

// Browser tests (*.browser.test.ts) drive Debian's Chromium. In CI a missing
// browser is a failure; on a laptop without it they are left out, said in one line.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  if (process.env.CI) {
    console.error(`Browser tests cannot run: no Chromium at ${chromium} (install Debian's chromium package).`);
    process.exit(1);
  }
  const browserFiles = files.filter((f) => f.endsWith('.browser.test.ts'));
  if (browserFiles.length > 0) {
    console.log(`Browser tests did not run: no Chromium at ${chromium} (apt-get install chromium); ${browserFiles.length} files left out.`);
    files = files.filter((f) => !f.endsWith('.browser.test.ts'));
  }
}

// Test files wait on child processes, PGlite's file system and the network as
// much as on the CPU, so more files run at once than there are cores.
const concurrency = process.env.TEST_CONCURRENCY ?? '4';

const { prepareTestRun } = await tsImport('../test/helpers/db.ts', import.meta.url);
const run = await prepareTestRun();

// Test processes live for seconds: PGlite's WebAssembly runs on V8's baseline
// compiler only (--liftoff-only, passed on to every test file and to the svc
// processes the end-to-end tests start) rather than spending CPU optimising it.
const child = spawn(process.execPath, ['--liftoff-only', '--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...files], {
  stdio: 'inherit',
  env: { ...process.env, ...run.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
});
// Ctrl-C reaches the runner too (same process group); wait for it to end, then clean up.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
const status = await new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
await run.cleanup().catch((err) => console.error(`Could not remove the run's test databases: ${err.message}`));
process.exit(status);
