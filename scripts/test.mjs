#!/usr/bin/env node
// Runs the whole suite with node's test runner, on JavaScript compiled from
// src/ and test/ by esbuild into .test-build/ (see compileTests).
// Database tests run on PGlite always and on PostgreSQL when TEST_DATABASE_URL
// is set; what the suite needs beyond npm (Debian's Chromium, zbar-tools,
// Redis) is made ready first by test-prerequisites.mjs.
//
// The test databases are migrated once here, before the runner starts: a PGlite
// snapshot in a temporary folder and, with TEST_DATABASE_URL, a template
// database with a unique name (see test/helpers/db.ts). Both are removed when
// the run ends, however it ends.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ensureTestPrerequisites } from './test-prerequisites.mjs';

// Chromium, zbarimg and Redis installed or started before anything runs, or one line saying what to install.
await ensureTestPrerequisites();

function collect(dir, suffix, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) collect(full, suffix, out);
    else if (entry.name.endsWith(suffix)) out.push(full);
  }
  return out;
}

const BUILD_DIR = '.test-build';

/** `npm run build`, its output shown as it comes; resolves to whether it succeeded. */
function npmRunBuild() {
  const child = spawn('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  return new Promise((resolve) => {
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}

/** The sources of the packages under packages/ (the SDK), which tests import from packages/<name>/src. */
const packageSources = () =>
  fs.existsSync('packages') ? fs.readdirSync('packages').flatMap((name) => collect(path.join('packages', name, 'src'), '.ts')) : [];

/**
 * Transpiles every TypeScript file of src/, test/ and packages/<name>/src to
 * JavaScript, one file each, in the same layout under .test-build/. A test process then loads plain
 * JavaScript: through a TypeScript loader hook every process spent about 1.5 s
 * of CPU more on its imports, about a minute and a half over a run. Types are
 * checked by `npm run typecheck`, not here. The compiled src/ resolves its
 * browser bundles two folders up, in dist/web, as dist/ does in production:
 * .test-build/dist points at the real one.
 */
async function compileTests() {
  fs.rmSync(BUILD_DIR, { recursive: true, force: true });
  await build({
    entryPoints: [...collect('src', '.ts'), ...collect('test', '.ts'), ...packageSources()],
    outdir: BUILD_DIR,
    outbase: '.',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
  fs.symlinkSync(path.resolve('dist'), path.join(BUILD_DIR, 'dist'));
}

// The fault tier (test/faults/: its own PostgreSQL cluster, a TCP proxy, killed
// processes, fuzzing) runs with `npm run test:faults`, not with `npm test`.
const FAULTS_DIR = path.join('test', 'faults');
// Arguments are test files or folders of them; without any, every test outside the fault tier.
const only = process.argv.slice(2).flatMap((arg) => (fs.statSync(arg).isDirectory() ? collect(arg, '.test.ts') : [arg]));
// The longest files start first (end-to-end and browser tests spawn servers and
// Chromium), so the short unit and route files fill the cores at the end
// instead of a long file running alone after everything else has finished.
const weight = (file) => (file.includes('/e2e/') || file.endsWith('.browser.test.ts') ? 0 : file.startsWith('test') ? 1 : 2);
const everyTest = () => [...collect('src', '.test.ts'), ...collect('test', '.test.ts')].filter((f) => !f.startsWith(FAULTS_DIR + path.sep));
const files = (only.length > 0 ? only : everyTest()).sort((a, b) => weight(a) - weight(b) || a.localeCompare(b));

if (!process.env.TEST_DATABASE_URL) {
  console.log('PostgreSQL pass did not run: TEST_DATABASE_URL is not set, database tests ran on PGlite only.');
}

// Test files wait on child processes, PGlite's file system and the network as
// much as on the CPU, so more files run at once than there are cores. Fault
// files run two at a time: each holds a cluster and several svc processes, and
// times the service's answers, which a starved machine would distort.
const faultTier = files.every((f) => f.startsWith(FAULTS_DIR + path.sep));
const concurrency = Number(process.env.TEST_CONCURRENCY ?? (faultTier ? '2' : '4'));

// The service's build (dist/: what the end-to-end tests start, and the browser
// bundles) runs beside the tests' own compilation and the databases' migration,
// which do not need it: on two cores that is several seconds less.
const building = npmRunBuild();
await compileTests();
const compiled = (file) => path.join(BUILD_DIR, path.relative('.', file).replace(/\.ts$/, '.js'));
const { prepareTestRun } = await import(pathToFileURL(compiled('test/helpers/db.ts')).href);
const prepared = await prepareTestRun();
Object.assign(process.env, prepared.env, { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' });
if (!(await building)) {
  await prepared.cleanup();
  console.error('npm run build failed: no test ran.');
  process.exit(1);
}

// run() keeps the order above (`node --test` sorts its files by name). Every
// test process inherits this process's flags: package.json starts it with
// --liftoff-only (test processes live for seconds, so PGlite's WebAssembly runs
// on V8's baseline compiler rather than spending CPU optimising it; the svc
// processes of the end-to-end tests get it too) and --enable-source-maps (stack
// traces point into the TypeScript sources).
let failed = false;
const stream = run({ files: files.map(compiled), concurrency });
stream.on('test:fail', () => {
  failed = true;
});
// Ctrl-C reaches the test processes too (same process group); the run ends, then the cleanup below runs.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => (failed = true));
const report = stream.compose(spec);
report.pipe(process.stdout);
await finished(report);
await prepared.cleanup().catch((err) => console.error(`Could not remove the run's test databases: ${err.message}`));
process.exit(failed ? 1 : 0);
