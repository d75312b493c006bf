/**
 * The dashboard as the operator meets it, on a real `svc serve` (embedded
 * database, so the CLI goes through the server's socket): the start banner
 * prints the dashboard's address and the demo admin's password, which is in
 * DATA_DIR/dashboard-password.txt (0600) and signs in over HTTP; `svc user
 * invite` prints an invitation URL that activates a member; `svc user list`,
 * `set-role` and `remove` keep the last admin.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { createDeployment, startServer, type Deployment, type TestServer } from '../helpers/server.js';

type Json = Record<string, any>;

let deployment: Deployment | undefined;
let live: TestServer | undefined;

after(async () => {
  if (live) await live.stop({ keep: true }).catch(() => {});
  await deployment?.destroy();
});

test('the demo admin signs in with the printed password; svc user invite, list, set-role and remove', async () => {
  deployment = await createDeployment({ engine: 'pglite' });
  live = await startServer({ reuse: deployment });
  const server = live;
  const companyId = server.companyId!;

  const banner = /Dashboard: (http:\/\/localhost:\d+\/dashboard) {2}\(sign in as demo@loja\.example, password: (\S+)\)/.exec(server.stdout());
  assert.ok(banner, server.stdout());
  const file = path.join(server.dataDir, 'dashboard-password.txt');
  assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'the password file is private');
  const password = banner[2]!;
  assert.equal(fs.readFileSync(file, 'utf8').trim(), password);
  assert.ok(password.length >= 16);

  const origin = { origin: server.url, 'content-type': 'application/json' };
  const signIn = await fetch(`${server.url}/dashboard/api/session`, { method: 'POST', headers: origin, body: JSON.stringify({ email: 'demo@loja.example', password }) });
  assert.equal(signIn.status, 200, await signIn.clone().text());
  assert.equal(((await signIn.json()) as Json).role, 'admin');
  assert.match(signIn.headers.get('set-cookie') ?? '', /^svc_session=/);

  const invited = await server.cli('user', 'invite', '--company', companyId, '--email', 'Maria@Loja.example', '--role', 'finance', '--json');
  assert.equal(invited.code, 0, invited.stderr);
  const url = (invited.json as Json).url as string;
  assert.ok(url.startsWith(`${server.url}/dashboard/invitation#`), url);
  const token = new URL(url).hash.slice(1);
  const activated = await fetch(`${server.url}/dashboard/api/invitations/${token}`, {
    method: 'POST',
    headers: origin,
    body: JSON.stringify({ name: 'Maria', password: 'uma senha longa', passwordConfirmation: 'uma senha longa' }),
  });
  assert.equal(activated.status, 200, await activated.clone().text());
  assert.equal(((await activated.json()) as Json).role, 'finance');

  const listed = await server.cli('user', 'list', '--company', companyId, '--json');
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual((listed.json as Json[]).map((m) => [m.email, m.role]), [['demo@loja.example', 'admin'], ['maria@loja.example', 'finance']]);

  const lastAdmin = await server.cli('user', 'set-role', '--company', companyId, '--email', 'demo@loja.example', '--role', 'viewer');
  assert.equal(lastAdmin.code, 1);
  assert.match(lastAdmin.stderr, /^error: A company needs at least one administrator/);

  const promoted = await server.cli('user', 'set-role', '--company', companyId, '--email', 'maria@loja.example', '--role', 'admin', '--json');
  assert.equal(promoted.code, 0, promoted.stderr);
  assert.equal((promoted.json as Json).role, 'admin');
  const removed = await server.cli('user', 'remove', '--company', companyId, '--email', 'demo@loja.example');
  assert.equal(removed.code, 0, removed.stderr);
  assert.equal(removed.stdout, `demo@loja.example removed from ${companyId}\n`);
  // Each CLI run is a process of its own (a second or so): the refusals of a gone member and a bad role are
  // the service's and the parser's, tested in process (test/api/dashboard-team.test.ts, src/operator).
});
