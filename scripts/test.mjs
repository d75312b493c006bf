#!/usr/bin/env node
// Runs the whole suite with node's test runner, on JavaScript compiled from
// src/ and test/ by esbuild into .test-build/, one bundle per test file (see
// compileTests).
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
import os from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { pathToFileURL } from 'node:url';
import { bundle } from './bundle.mjs';
import { SERVICE_UNBUNDLED, buildService } from './build-service.mjs';
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

/** Runs `command args` with its output shown as it comes; resolves to whether it succeeded. */
function runShown(command, args) {
  const child = spawn(command, args, { stdio: 'inherit' });
  return new Promise((resolve) => {
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}

/**
 * The service as the end-to-end tests start it (bin/svc.js → dist/), built as
 * `npm run build` builds it (scripts/build-service.mjs), the SDK's dist/ by tsc
 * as it is published (its .d.ts included), and the browser bundles. Each build
 * clears what it writes (the service all of dist/ but dist/web, build-web.mjs
 * dist/web). Resolves to whether all three succeeded.
 */
async function buildAll() {
  const service = buildService().then(
    () => true,
    () => false,
  );
  const sdk = runShown(process.execPath, [path.join('node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join('packages', 'sdk', 'tsconfig.json')]);
  const web = runShown(process.execPath, [path.join('scripts', 'build-web.mjs')]);
  return (await Promise.all([service, sdk, web])).every(Boolean);
}

/**
 * Libraries a test file loads from node_modules as they are installed rather
 * than from its bundle: the service's (scripts/build-service.mjs), and those
 * that find files beside their own code (axe-core's script, the browsers'
 * driver), tools that are programs rather than libraries, and the SDK as it is
 * published.
 */
const TEST_UNBUNDLED = new Set([
  ...SERVICE_UNBUNDLED,
  '@redocly/openapi-core',
  '@svc-payments/sdk',
  'autocannon',
  'axe-core',
  'esbuild',
  'jsqr',
  'openapi-backend',
  'openapi-typescript',
  'playwright-core',
  'typescript',
  'yaml',
]);

/**
 * Bundles every test file, with the code of src/, test/ and the libraries it
 * imports, into .test-build/ in the same layout (scripts/bundle.mjs: the code
 * test files share in .test-build/chunks/). The compiled src/ resolves its
 * browser bundles two folders up, in dist/web, as dist/ does in production:
 * .test-build/dist points at the real one.
 */
async function compileTests() {
  fs.rmSync(BUILD_DIR, { recursive: true, force: true });
  await bundle({
    // Test files, and the helpers this script imports itself.
    entryPoints: [...collect('src', '.test.ts'), ...collect('test', '.test.ts'), 'test/helpers/db.ts', 'test/helpers/chromium.ts'],
    outdir: BUILD_DIR,
    outbase: '.',
    unbundled: TEST_UNBUNDLED,
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
// Within a kind, the files that took longest in the last run on this checkout
// (DURATIONS_FILE, written at the end of every run) go first; a file it does
// not know goes first of its kind, then by name.
const DURATIONS_FILE = '.test-durations.json';
const lastDurations = (() => {
  try {
    return JSON.parse(fs.readFileSync(DURATIONS_FILE, 'utf8'));
  } catch {
    return {};
  }
})();
const weight = (file) => (file.includes('/e2e/') || file.endsWith('.browser.test.ts') ? 0 : file.startsWith('test') ? 1 : 2);
const lastDuration = (file) => lastDurations[file] ?? Infinity;
const everyTest = () => [...collect('src', '.test.ts'), ...collect('test', '.test.ts')].filter((f) => !f.startsWith(FAULTS_DIR + path.sep));
const files = (only.length > 0 ? only : everyTest()).sort(
  (a, b) => weight(a) - weight(b) || (lastDuration(b) > lastDuration(a) ? 1 : lastDuration(b) < lastDuration(a) ? -1 : 0) || a.localeCompare(b),
);

if (!process.env.TEST_DATABASE_URL) {
  console.log('PostgreSQL pass did not run: TEST_DATABASE_URL is not set, database tests ran on PGlite only.');
}

// Test files wait on child processes, PGlite's file system and the network as
// much as on the CPU, so more files run at once than there are cores. Fault
// files run two at a time: each holds a cluster and several svc processes, and
// times the service's answers, which a starved machine would distort.
const faultTier = files.every((f) => f.startsWith(FAULTS_DIR + path.sep));
const concurrency = Number(process.env.TEST_CONCURRENCY ?? (faultTier ? '2' : '4'));

// Every process of the run (test files, the svc processes they start) keeps V8's
// compiled code of the modules it loads in one cache folder and reuses what an
// earlier process compiled: about 0.35 s of CPU less per svc start.
process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), 'svc-test-compile-cache');

// Everything the run writes to a temporary folder (the test databases copied
// for every test app, the data folders of the servers the end-to-end tests
// start, certificates, Chromium's profile) goes to a folder of the run in
// memory (/dev/shm) when the machine has one with room, removed when the run
// ends. On an ext4 disk, creating the 565 files of one PGlite data folder cost
// 0.7 s of system CPU; in memory 0.07 s. TMPDIR set by the caller is kept.
const MEMORY_FOLDER = '/dev/shm';
const RUN_FOLDER_PREFIX = 'svc-test-run-';

/** Whether process `pid` still runs (signal 0 tests without sending anything). */
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function inMemoryTemp() {
  if (process.env.TMPDIR || !fs.existsSync(MEMORY_FOLDER)) return;
  // A run killed outright (SIGKILL, a lost machine) could not remove its folder, which holds memory: it goes now.
  for (const name of fs.readdirSync(MEMORY_FOLDER)) {
    if (!name.startsWith(RUN_FOLDER_PREFIX)) continue;
    const pid = Number(name.slice(RUN_FOLDER_PREFIX.length).split('-')[0]);
    if (!Number.isInteger(pid) || pid <= 0 || running(pid)) continue;
    try {
      fs.rmSync(path.join(MEMORY_FOLDER, name), { recursive: true, force: true });
    } catch {
      // Another user's: theirs to remove.
    }
  }
  const { bavail, bsize } = fs.statfsSync(MEMORY_FOLDER);
  if (bavail * bsize < 2 ** 31) return;
  // Screenshots for a person to look at stay where they were (test/helpers/screenshots.ts).
  process.env.SVC_TEST_SCREENSHOTS_TMPDIR = os.tmpdir();
  const folder = fs.mkdtempSync(path.join(MEMORY_FOLDER, `${RUN_FOLDER_PREFIX}${process.pid}-`));
  // Others may pass through, not list or write: the fault tier's PostgreSQL runs as the postgres user in a folder of its own inside.
  fs.chmodSync(folder, 0o711);
  process.env.TMPDIR = folder;
  process.on('exit', () => fs.rmSync(folder, { recursive: true, force: true }));
}
inMemoryTemp();

// The service's build (dist/: what the end-to-end tests start, and the browser
// bundles) runs beside the tests' own compilation and the databases' migration,
// which do not need it.
const building = buildAll();
await compileTests();
const compiled = (file) => path.join(BUILD_DIR, path.relative('.', file).replace(/\.ts$/, '.js'));
const { prepareTestRun } = await import(pathToFileURL(compiled('test/helpers/db.ts')).href);
const prepared = await prepareTestRun();
Object.assign(process.env, prepared.env, { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' });
// One Chromium for every browser file of the run (test/helpers/chromium.ts), closed when the run ends.
const browser = files.some((file) => file.endsWith('.browser.test.ts'))
  ? await (await import(pathToFileURL(compiled('test/helpers/chromium.ts')).href)).launchChromiumServer()
  : undefined;
Object.assign(process.env, browser?.env);
if (!(await building)) {
  await browser?.server.close();
  await prepared.cleanup();
  console.error('The build failed: no test ran.');
  process.exit(1);
}

// run() keeps the order above (`node --test` sorts its files by name). Every
// test process inherits this process's flags: package.json starts it with
// --liftoff-only (test processes live for seconds, so PGlite's WebAssembly runs
// on V8's baseline compiler rather than spending CPU optimising it; the svc
// processes of the end-to-end tests get it too) and --enable-source-maps (stack
// traces point into the TypeScript sources).
let failed = false;

// TEST_CPU_REPORT=<file>: every test process appends its CPU seconds (its own
// and its children's: the svc processes it started) and wall seconds to <file>
// as it exits (scripts/test-cpu-probe.mjs), and the run ends with them by file
// and the run's total, to find where a run's CPU goes on a machine too busy to
// time it.
const cpuReport = process.env.TEST_CPU_REPORT ? path.resolve(process.env.TEST_CPU_REPORT) : undefined;
const probe = cpuReport ? await import('./test-cpu-probe.mjs') : undefined;
if (cpuReport) {
  fs.rmSync(cpuReport, { force: true });
  process.env.SVC_TEST_CPU_FILE = cpuReport;
}
const execArgv = cpuReport ? ['--import', pathToFileURL(path.resolve('scripts', 'test-cpu-probe.mjs')).href] : [];

// Ctrl-C reaches the test processes too (same process group); the run ends, then the cleanup below runs.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => (failed = true));

/** Milliseconds each file's top-level tests took in this run, by source file (DURATIONS_FILE). */
const durations = {};
// Events name the TypeScript source (source maps), or the compiled file without them.
const sourceOf = new Map(files.flatMap((file) => [[path.resolve(file), file], [path.resolve(compiled(file)), file]]));
function countDuration({ file, nesting, details }) {
  const source = sourceOf.get(path.resolve(String(file)));
  if (source && nesting === 0) durations[source] = (durations[source] ?? 0) + (details?.duration_ms ?? 0);
}

/** Runs `batch` through node's runner, `concurrency` files at a time, reporting as it goes. */
async function runFiles(batch, concurrency) {
  if (batch.length === 0) return;
  const stream = run({ files: batch.map(compiled), concurrency, execArgv });
  stream.on('test:fail', (data) => {
    failed = true;
    countDuration(data);
  });
  stream.on('test:pass', countDuration);
  const report = stream.compose(spec);
  report.pipe(process.stdout, { end: false });
  await finished(report);
}

/** The CPU and wall seconds of each test file, the most costly first, and the run's total (this process and every child it waited for, Chromium's included). */
function printCpuReport(file) {
  const rows = fs.existsSync(file)
    ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line))
    : [];
  rows.sort((a, b) => b.self + b.children - (a.self + a.children));
  const seconds = (n) => n.toFixed(1).padStart(7);
  console.log('\n    CPU s   own s  children s  wall s  test file');
  for (const row of rows) {
    console.log(`${seconds(row.self + row.children)} ${seconds(row.self)} ${seconds(row.children)}     ${seconds(row.wall)}  ${path.relative(path.resolve(BUILD_DIR), row.file)}`);
  }
  const tests = rows.reduce((sum, row) => sum + row.self + row.children, 0);
  const run = probe.cpuOfProcess();
  console.log(`Test processes (with their children): ${tests.toFixed(1)} CPU-s; the whole run (runner, build, Chromium, test processes): ${(run.self + run.children).toFixed(1)} CPU-s; wall ${(performance.now() / 1000).toFixed(1)} s.`);
}

// Files that assert wall-clock bounds (*.timed.test.ts: an answer within so
// many milliseconds) run last, one at a time, on a machine no other test file
// is loading; everything else runs first, `concurrency` at a time.
const timed = (file) => file.endsWith('.timed.test.ts');
await runFiles(files.filter((file) => !timed(file)), concurrency);
await runFiles(files.filter(timed), 1);
await browser?.server.close();
await prepared.cleanup().catch((err) => console.error(`Could not remove the run's test databases: ${err.message}`));
if (cpuReport) printCpuReport(cpuReport);
// Kept for the next run's order: merged into what earlier runs measured, so a run of chosen files forgets nothing.
fs.writeFileSync(DURATIONS_FILE, `${JSON.stringify({ ...lastDurations, ...durations }, null, 1)}\n`);
process.exit(failed ? 1 : 0);
