// What the test suite needs beyond npm, made ready before any test runs, so
// that `npm test` on a fresh machine of this project's kind either runs the
// whole suite or stops at once with one line saying what to install:
//
// - Debian's Chromium (browser tests; never a browser download) and zbar's
//   `zbarimg` (the QR image test's second, independent decoder): installed
//   from Debian's packages when this runs as root with apt-get, as CI does;
// - Redis at 127.0.0.1:6379 (the shared rate-limit test): started when
//   `redis-server` is installed (installed first, as above, when it is not);
// - PostgreSQL at TEST_DATABASE_URL, when that is set: checked, not started.
//
// scripts/test.mjs calls ensureTestPrerequisites() before building anything.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const REDIS = { host: '127.0.0.1', port: 6379 };

/** Whether an executable named `name` is on PATH. */
function onPath(name) {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, name)));
}

/** Resolves whether a TCP connection to host:port opens within a second. */
function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The Debian packages missing for what the suite runs (Redis only when none answers). */
async function missingPackages() {
  const needs = [
    { file: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', pkg: 'chromium' },
    { file: process.env.ZBARIMG_PATH ?? '/usr/bin/zbarimg', pkg: 'zbar-tools' },
  ];
  const missing = needs.filter((need) => !fs.existsSync(need.file)).map((need) => need.pkg);
  if (!onPath('redis-server') && !(await reachable(REDIS.host, REDIS.port))) missing.push('redis-server');
  return missing;
}

/** Stops the run before anything ran, with one line. */
function stop(line) {
  console.error(line);
  process.exit(1);
}

function canInstall() {
  return process.getuid?.() === 0 && onPath('apt-get');
}

function install(packages) {
  console.log(`Installing ${packages.join(', ')} from Debian's packages (needed by the tests)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', ...packages]]) {
    const result = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    if (result.status !== 0) stop(`apt-get ${args.join(' ')} failed; install ${packages.join(' ')} and run npm test again`);
  }
}

export async function ensureTestPrerequisites() {
  const missing = await missingPackages();
  if (missing.length > 0) {
    if (!canInstall()) stop(`npm test needs ${missing.join(', ')}: install with \`sudo apt-get install -y ${missing.join(' ')}\`, then run npm test again`);
    install(missing);
  }
  if (!(await reachable(REDIS.host, REDIS.port))) {
    // As CI starts it: nothing kept on disk.
    execFileSync('redis-server', ['--daemonize', 'yes', '--bind', REDIS.host, '--port', String(REDIS.port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 50 && !(await reachable(REDIS.host, REDIS.port)); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    if (!(await reachable(REDIS.host, REDIS.port))) stop(`Redis did not start at ${REDIS.host}:${REDIS.port}; start it and run npm test again`);
  }
  const postgres = process.env.TEST_DATABASE_URL;
  if (postgres) {
    const url = new URL(postgres);
    if (!(await reachable(url.hostname, Number(url.port || 5432)))) stop(`TEST_DATABASE_URL's PostgreSQL (${url.host}) does not answer; start it, or unset TEST_DATABASE_URL to run on PGlite only`);
  }
}
