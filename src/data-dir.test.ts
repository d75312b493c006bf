import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeTightened, ownerOnlyDataDir } from './data-dir.js';
import { StartError } from './start-error.js';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-data-dir-'));
// ownerOnlyDataDir sets the process's umask for good, as the service wants; this test process gets its own back.
const umask = process.umask(0o022);
after(() => {
  process.umask(umask);
  fs.rmSync(root, { recursive: true, force: true });
});

test('a new DATA_DIR is made 0700 with its missing parents, and what the process creates next is owner-only', () => {
  process.umask(0o022);
  const dataDir = path.join(root, 'fresh', 'nested', 'data');
  assert.equal(ownerOnlyDataDir(dataDir), undefined, 'nothing to tighten');
  assert.equal(modeOf(dataDir), 0o700);
  assert.equal(modeOf(path.join(root, 'fresh')), 0o700);
  // What PGlite does: Node's fs with its default modes (0666 files, 0777 folders), under the process's umask.
  fs.writeFileSync(path.join(dataDir, 'wal-segment'), 'x');
  fs.mkdirSync(path.join(dataDir, 'base'));
  assert.equal(modeOf(path.join(dataDir, 'wal-segment')), 0o600);
  assert.equal(modeOf(path.join(dataDir, 'base')), 0o700);
});

test('a DATA_DIR open to others is tightened with the database files in it, and the start says what it found', () => {
  process.umask(0o022);
  const dataDir = path.join(root, 'earlier-version');
  const database = path.join(dataDir, 'pglite', 'base', '1');
  fs.mkdirSync(database, { recursive: true, mode: 0o755 });
  fs.chmodSync(dataDir, 0o755);
  fs.writeFileSync(path.join(database, '1259'), 'relation', { mode: 0o644 });
  fs.writeFileSync(path.join(dataDir, 'pglite', 'PG_VERSION'), '17', { mode: 0o640 });
  fs.writeFileSync(path.join(dataDir, 'pglite', 'postgresql.conf'), '', { mode: 0o600 });
  fs.symlinkSync('/etc/hostname', path.join(dataDir, 'pglite', 'outside'));
  const outside = fs.statSync('/etc/hostname').mode;

  const tightened = ownerOnlyDataDir(dataDir);
  assert.deepEqual(tightened, { folderMode: 0o755, files: 5 }, 'pglite, base, base/1, 1259 and PG_VERSION; not the 0600 file');
  assert.equal(modeOf(dataDir), 0o700);
  for (const entry of ['pglite', 'pglite/base', 'pglite/base/1']) assert.equal(modeOf(path.join(dataDir, entry)), 0o700, entry);
  for (const entry of ['pglite/base/1/1259', 'pglite/PG_VERSION', 'pglite/postgresql.conf']) assert.equal(modeOf(path.join(dataDir, entry)), 0o600, entry);
  assert.equal(fs.statSync('/etc/hostname').mode, outside, 'a symbolic link is not followed');
  const [fields, message] = describeTightened(dataDir, tightened!);
  assert.deepEqual(fields, { dataDir, previousMode: '0755', databaseFiles: 5 });
  assert.equal(message, 'DATA_DIR was open to other local users (mode 0755): made owner-only (folder 0700, 5 database files tightened)');

  assert.equal(ownerOnlyDataDir(dataDir), undefined, 'the next start finds nothing to say');
});

test('files open to others in a private DATA_DIR are tightened too, and named as such', () => {
  const dataDir = path.join(root, 'loose-files');
  fs.mkdirSync(path.join(dataDir, 'pglite'), { recursive: true, mode: 0o700 });
  fs.chmodSync(path.join(dataDir, 'pglite'), 0o700);
  fs.writeFileSync(path.join(dataDir, 'pglite', 'PG_VERSION'), '17');
  fs.chmodSync(path.join(dataDir, 'pglite', 'PG_VERSION'), 0o644);
  const tightened = ownerOnlyDataDir(dataDir);
  assert.deepEqual(tightened, { folderMode: 0o700, files: 1 });
  assert.match(describeTightened(dataDir, tightened!)[1], /^DATA_DIR held database files open to other local users: /);
  assert.equal(modeOf(path.join(dataDir, 'pglite', 'PG_VERSION')), 0o600);
});

test('a shared folder (sticky bit, like /tmp) or a file is refused with one line, and left as it was', () => {
  const shared = path.join(root, 'shared');
  fs.mkdirSync(shared);
  fs.chmodSync(shared, 0o1777);
  assert.throws(() => ownerOnlyDataDir(shared), (err: unknown) => err instanceof StartError && /is a shared folder \(sticky bit/.test(err.message));
  assert.equal(fs.statSync(shared).mode & 0o7777, 0o1777);
  const file = path.join(root, 'a-file');
  fs.writeFileSync(file, '');
  assert.throws(() => ownerOnlyDataDir(file), (err: unknown) => err instanceof StartError && /is not a folder/.test(err.message));
});
