/**
 * `npm test` on a machine that lacks what the suite needs beyond npm: it
 * installs it when it can (root with apt-get, as in CI), otherwise it stops
 * before running anything with one line naming the package and the command
 * that installs it (scripts/test-prerequisites.mjs).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../helpers/server.js';

const execFileAsync = promisify(execFile);
const SCRIPT = path.join(REPO_ROOT, 'scripts', 'test-prerequisites.mjs');

/** Runs the check in a process whose PATH holds only node (so no apt-get and no redis-server), with `env` added. */
async function check(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const code = `import(${JSON.stringify(SCRIPT)}).then((m) => m.ensureTestPrerequisites()).then(() => console.log('ready'))`;
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, ['--input-type=module', '-e', code], { env: { PATH: path.dirname(process.execPath), ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

test('a missing Chromium and zbarimg that cannot be installed stop the run with one line naming the packages and the command', async () => {
  const result = await check({ CHROMIUM_PATH: '/nonexistent/chromium', ZBARIMG_PATH: '/nonexistent/zbarimg' });
  assert.equal(result.code, 1);
  assert.equal(result.stdout, '', 'nothing ran');
  assert.equal(result.stderr, 'npm test needs chromium, zbar-tools: install with `sudo apt-get install -y chromium zbar-tools`, then run npm test again\n');
});

test('an unreachable TEST_DATABASE_URL stops the run with one line', async () => {
  const result = await check({ TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test' });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /^TEST_DATABASE_URL's PostgreSQL \(127\.0\.0\.1:1\) does not answer; start it, or unset TEST_DATABASE_URL to run on PGlite only\n$/);
});

test('with everything present the check passes and installs nothing', async () => {
  const result = await check({});
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, 'ready\n');
});
