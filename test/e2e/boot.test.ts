/**
 * E2E lifecycle of `svc serve` as an operator sees it:
 *  - first start, on an empty database, migrates it and prints the demo company, its two approved recipient
 *    accounts and a `svc_test_` key (also in DATA_DIR/sandbox-key.txt);
 *  - a restart on the same DATA_DIR / DATABASE_URL keeps the key and the
 *    data, and creates no second demo company;
 *  - a key revoked with the operator CLI is refused within 5 s: on
 *    PostgreSQL while the server runs; on PGlite (one process at a time) by
 *    stopping, revoking, and starting again;
 *  - SIGTERM stops the server with exit code 0 (PGlite: the lock file goes).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { pollEverySecond, startServer, withDatabase, type Deployment, type TestServer } from '../helpers/server.js';
import { pixIntent } from '../helpers/fixtures.js';

type Json = Record<string, any>;

const DEMO_DOCUMENT = '11222333000181';
const DEMO_ACCOUNTS = ['11444777000161', '52998224725'];

let deployment: Deployment | undefined;
let live: TestServer | undefined;

after(async () => {
  // Whatever happened, no server is left running and the database is dropped.
  if (live) await live.stop({ keep: true }).catch(() => {});
  await deployment?.destroy();
});

/** Stops with SIGTERM and checks the graceful exit: code 0, and with PGlite no lock file left. */
async function stopGracefully(server: TestServer): Promise<void> {
  const exit = await server.stop({ keep: true });
  live = undefined;
  assert.deepEqual(exit, { code: 0, signal: null }, `SIGTERM exits with code 0\n${server.stderr()}`);
  if (server.engine === 'pglite') {
    assert.equal(fs.existsSync(path.join(server.dataDir, 'pglite.lock')), false, 'the PGlite lock file is removed');
  }
}

async function status(server: TestServer, key: string): Promise<number> {
  const res = await fetch(`${server.url}/v2/transactions?limit=1`, { headers: { authorization: `Bearer ${key}` } });
  await res.arrayBuffer();
  return res.status;
}

test('first start, restart on the same data, key revocation by the operator CLI, graceful SIGTERM', async (t) => {
  // ---- first start --------------------------------------------------------
  // An empty database, as a first installation has: this start creates the schema (other e2e tests start migrated).
  const first = await startServer({ migrated: false, env: { RATE_LIMIT_PER_SECOND: '1000' } });
  live = first;
  deployment = first.deployment;
  const out = first.stdout();
  assert.match(out, /Demo company: Loja Demo Ltda \(cmp_[0-9a-z]+\)/);
  assert.ok(first.companyId, 'the demo company id is printed');
  assert.match(out, /Approved recipient accounts: .*11444777000161.*52998224725/);
  const printedKey = /Sandbox API key: (\S+)/.exec(out)?.[1];
  assert.match(printedKey ?? '', /^svc_test_[0-9A-Za-z]{43}$/, 'a sandbox key of 32 random bytes in base62');
  assert.equal(printedKey, first.key, 'the printed key is the one in DATA_DIR/sandbox-key.txt');
  if (process.platform !== 'win32') {
    assert.equal(fs.statSync(path.join(first.dataDir, 'sandbox-key.txt')).mode & 0o777, 0o600, 'the key file is private');
  }

  const created = await first.api('/v2/payment-intents', { body: pixIntent({ amountCents: 2_500, referenceId: 'survives-restart', confirm: true }) });
  assert.equal(created.status, 201);
  const intent = (await created.json()) as Json;
  const trxBefore = (await (await first.api(`/v2/transactions/${intent.transactionId}`)).json()) as Json;
  assert.equal(trxBefore.sellerId, first.companyId);

  // ---- restart ------------------------------------------------------------
  await stopGracefully(first);
  let extraKey: { id: string; key: string } | undefined;
  if (first.engine === 'pglite') {
    // PGlite admits one process: the operator issues the key while the server is stopped.
    const issued = await first.cli('key', 'issue', '--company', first.companyId!, '--json');
    assert.equal(issued.code, 0, issued.stderr);
    extraKey = issued.json as { id: string; key: string };
  }

  const second = await startServer({ reuse: deployment, env: { RATE_LIMIT_PER_SECOND: '1000' } });
  live = second;
  assert.equal(second.key, first.key, 'the same sandbox key');
  assert.equal(second.companyId, first.companyId, 'the same demo company is printed');
  assert.match(second.stdout(), new RegExp(`Sandbox API key: ${first.key}`));
  assert.equal(await status(second, first.key), 200, 'the first key still works');
  const trxAfter = await second.api(`/v2/transactions/${intent.transactionId}`);
  assert.equal(trxAfter.status, 200);
  assert.deepEqual(await trxAfter.json(), trxBefore, 'the transaction made before the restart is unchanged');
  const intentAfter = (await (await second.api(`/v2/payment-intents/${intent.id}`)).json()) as Json;
  assert.equal(intentAfter.status, 'CONFIRMED');
  const listed = (await (await second.api('/v2/transactions?referenceId=survives-restart')).json()) as Json;
  assert.deepEqual(listed.data.map((r: Json) => r.id), [intent.transactionId]);

  // ---- revocation -----------------------------------------------------------
  let final: TestServer;
  if (second.engine === 'postgres') {
    await t.test('PostgreSQL: a key revoked with the CLI while the server runs is refused within 5 s', async () => {
      const issued = await second.cli('key', 'issue', '--company', second.companyId!, '--json');
      assert.equal(issued.code, 0, issued.stderr);
      extraKey = issued.json as { id: string; key: string };
      assert.equal(await status(second, extraKey.key), 200, 'a key issued while the server runs works');
      const revoked = await second.cli('key', 'revoke', extraKey.id, '--json');
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.ok((revoked.json as Json).revokedAt, 'the CLI reports the revocation');
      const refusedAfter = await pollEverySecond(async () => (await status(second, extraKey!.key)) === 401, 5_000);
      assert.ok(refusedAfter !== undefined, 'the revoked key is refused within 5 s');
      assert.equal(await status(second, second.key), 200, 'other keys keep working');
    });
    final = second;
  } else {
    await t.test('PGlite: a key revoked with the CLI while the server is stopped is refused after the start', async () => {
      assert.ok(extraKey);
      assert.equal(await status(second, extraKey.key), 200, 'the key issued while stopped works');
      await stopGracefully(second);
      const revoked = await second.cli('key', 'revoke', extraKey.id, '--json');
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.ok((revoked.json as Json).revokedAt, 'the CLI reports the revocation');
      const third = await startServer({ reuse: deployment, env: { RATE_LIMIT_PER_SECOND: '1000' } });
      live = third;
      const refusedAfter = await pollEverySecond(async () => (await status(third, extraKey!.key)) === 401, 5_000);
      assert.ok(refusedAfter !== undefined, 'the revoked key is refused within 5 s of the start');
      const refused = await fetch(`${third.url}/v2/transactions`, { headers: { authorization: `Bearer ${extraKey.key}` } });
      assert.equal(refused.headers.get('www-authenticate'), 'Bearer');
      assert.equal(((await refused.json()) as Json).code, 'UNAUTHORIZED');
      assert.equal(await status(third, third.key), 200, 'the demo key keeps working');
      assert.equal(third.companyId, first.companyId);
    });
    final = live!;
  }

  // ---- graceful stop, and exactly one demo company -----------------------
  await stopGracefully(final);
  await withDatabase(deployment, async (db) => {
    const companies = await db.selectFrom('companies').select(['id', 'document']).execute();
    assert.deepEqual(companies, [{ id: first.companyId, document: DEMO_DOCUMENT }], 'restarts created no second demo company');
    const accounts = await db.selectFrom('accounts').select(['document', 'status']).where('document', 'in', DEMO_ACCOUNTS).orderBy('document').execute();
    assert.deepEqual(accounts, DEMO_ACCOUNTS.slice().sort().map((document) => ({ document, status: 'APPROVED' })), 'two approved recipient accounts');
    const keys = await db.selectFrom('api_keys').select(['id', 'revoked_at']).where('company_id', '=', first.companyId!).execute();
    assert.equal(keys.length, 2, 'the demo key and the one the operator issued');
    assert.equal(keys.filter((k) => k.revoked_at !== null).length, 1);
  });
});
