/**
 * What a sandbox `svc serve` exposes beyond its user, with HOST unset, on the
 * embedded database:
 *  - DATA_DIR made before (here: mode 0755, the database's files 0644, as an
 *    earlier version left them) is tightened at start, and the log says so;
 *    after a sale everything in it, what PGlite wrote while running
 *    included, is owner-only; the next start has nothing to say;
 *  - the API and the vault listen on 127.0.0.1 only: a connection to another
 *    loopback address (127.0.0.2, which Linux routes to the same interface,
 *    as it would a LAN address) is refused, where 0.0.0.0 would accept it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, test } from 'node:test';
import { pixIntent } from '../helpers/fixtures.js';
import { createDeployment, freePort, startServer, type Deployment } from '../helpers/server.js';

let deployment: Deployment | undefined;
after(() => deployment?.destroy());

/** Every entry under `dir` (itself included) with its permission bits; symbolic links left out. */
function modesUnder(dir: string): Map<string, number> {
  const modes = new Map<string, number>();
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry);
    if (stat.isSymbolicLink()) return;
    modes.set(path.relative(dir, entry) || '.', stat.mode & 0o777);
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(dir);
  return modes;
}

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

test('a sandbox start makes DATA_DIR owner-only and says so, and listens on loopback only', async () => {
  deployment = await createDeployment({ engine: 'pglite' });
  fs.chmodSync(deployment.dataDir, 0o755);
  const loose = [...modesUnder(deployment.dataDir)].filter(([, mode]) => mode & 0o077);
  assert.ok(loose.length > 100, `the seeded database is readable by others, as an earlier version left it (${loose.length} entries)`);
  const before = new Set(modesUnder(deployment.dataDir).keys());

  const vaultPort = await freePort();
  const server = await startServer({ reuse: deployment, env: { HOST: '', VAULT_PORT: String(vaultPort) } });
  try {
    const line = server
      .stdout()
      .split('\n')
      .find((l) => l.includes('made owner-only'));
    assert.ok(line, `the start says it tightened DATA_DIR:\n${server.stdout()}`);
    const logged = JSON.parse(line) as Record<string, unknown>;
    assert.equal(logged.level, 40, 'a warning');
    assert.equal(logged.previousMode, '0755');
    assert.equal(logged.dataDir, deployment.dataDir);
    assert.ok(Number(logged.databaseFiles) >= loose.length - 1, `${String(logged.databaseFiles)} database files tightened`);

    const sale = await server.api('/v2/payment-intents', { body: pixIntent({ confirm: true }) });
    assert.equal(sale.status, 201, await sale.text());

    for (const port of [Number(new URL(server.url).port), vaultPort]) {
      assert.equal(await accepts('127.0.0.1', port), true, `127.0.0.1:${port} answers`);
      assert.equal(await accepts('127.0.0.2', port), false, `port ${port} is not reachable through another address`);
    }
  } finally {
    await server.stop({ keep: true });
  }

  const after = modesUnder(deployment.dataDir);
  assert.ok([...after.keys()].some((entry) => !before.has(entry)), 'the run wrote new files (their modes are checked below)');
  assert.deepEqual([...after].filter(([, mode]) => mode & 0o077), [], 'nothing in DATA_DIR is open to group or others');
  assert.equal(after.get('.'), 0o700);
  for (const file of ['sandbox-key.txt', 'dashboard-password.txt', 'secrets.key', 'internal.key', 'vault-master.key']) assert.equal(after.get(file), 0o600, file);

  const again = await startServer({ reuse: deployment, env: { HOST: '' } });
  try {
    assert.doesNotMatch(again.stdout(), /made owner-only/, 'a private DATA_DIR is left alone, silently');
  } finally {
    await again.stop({ keep: true });
  }
});
