/**
 * The operator CLI beside a running `svc serve` on the embedded database
 * (PGlite admits one process): the CLI, run as a separate process, hands its
 * command to the server over DATA_DIR/svc.sock, and prints what it would have
 * printed running alone, with the same exit code. The socket is the user's
 * only (0600), goes when the server stops, and one left behind by a process
 * that is gone neither blocks the CLI nor the next start.
 * Then the dashboard's side: a restart prints the demo admin's password again
 * beside the dashboard's address (it is in DATA_DIR/dashboard-password.txt,
 * 0600, and signs in over HTTP); `svc user invite` prints an invitation URL
 * that activates a member; `svc user list`, `set-role` and `remove` keep the
 * last admin.
 * Always on PGlite: with DATABASE_URL the CLI opens PostgreSQL itself.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { createDeployment, runCli, startServer, type Deployment, type TestServer } from '../helpers/server.js';

type Json = Record<string, any>;

const ALPHANUMERIC_CNPJ = '12ABC34501DE35';

let deployment: Deployment | undefined;
let live: TestServer | undefined;

after(async () => {
  if (live) await live.stop({ keep: true }).catch(() => {});
  await deployment?.destroy();
});

test('operator commands run while svc serve holds the embedded database', async () => {
  deployment = await createDeployment({ engine: 'pglite' });
  const socket = path.join(deployment.dataDir, 'svc.sock');
  live = await startServer({ reuse: deployment });
  const server = live;

  const stat = fs.statSync(socket);
  assert.ok(stat.isSocket(), 'DATA_DIR/svc.sock is a socket');
  assert.equal(stat.mode & 0o777, 0o600, 'only the user who runs the server can open it');

  // Alone, the CLI would be refused: "the embedded database … is in use by process N".
  const company = await runCli(deployment, ['company', 'create', '--name', 'Loja Alfa Ltda', '--document', ALPHANUMERIC_CNPJ, '--json']);
  assert.equal(company.code, 0, company.stderr);
  const created = company.json as Json;
  assert.match(created.id, /^cmp_/);
  assert.equal(created.document, ALPHANUMERIC_CNPJ);

  const issued = await runCli(deployment, ['key', 'issue', '--company', created.id]);
  assert.equal(issued.code, 0, issued.stderr);
  const key = /^(svc_test_\S+)$/m.exec(issued.stdout)?.[1];
  assert.ok(key, `the text output ends with the key: ${issued.stdout}`);
  const listed = await fetch(`${server.url}/v2/transactions`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(listed.status, 200, 'the key works at once, on the server that issued it');
  assert.deepEqual(((await listed.json()) as Json).data, [], 'and it is the new company’s: no sales yet');

  const refused = await runCli(deployment, ['company', 'create', '--name', 'Loja Beta', '--document', '12.ABC.345/01DE-35']);
  assert.equal(refused.code, 1, 'a refusal keeps its exit code');
  assert.match(refused.stderr, /^error: document 12\.ABC\.345\/01DE-35 must be .*digits only/);
  const unknown = await runCli(deployment, ['company', 'rename']);
  assert.equal(unknown.code, 2, 'a usage error keeps its exit code');
  assert.match(unknown.stderr, /unknown command: company rename\nusage: npm run svc -- <command>/);

  const info = await server.stop({ keep: true });
  live = undefined;
  assert.equal(info.code, 0);
  assert.equal(fs.existsSync(socket), false, 'the socket goes with the server');

  // A socket file left by a process that is gone (here: a plain file where the socket was).
  fs.writeFileSync(socket, '');
  const alone = await runCli(deployment, ['key', 'list', '--company', created.id, '--json']);
  assert.equal(alone.code, 0, `with no server the CLI opens the database itself: ${alone.stderr}`);
  assert.equal((alone.json as Json[]).length, 1);

  live = await startServer({ reuse: deployment });
  assert.ok(fs.statSync(socket).isSocket(), 'the next start replaces the stale file with its socket');
  const again = await runCli(deployment, ['key', 'list', '--company', created.id, '--json']);
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(again.json, alone.json, 'the same answer from the server as from the CLI alone');
});

test('the demo admin signs in with the password a restart prints; svc user invite, list, set-role and remove', async () => {
  assert.ok(live, 'the server of the test above still runs');
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
  const activated = await fetch(`${server.url}/dashboard/api/invitations/accept`, {
    method: 'POST',
    headers: origin,
    body: JSON.stringify({ token, name: 'Maria', password: 'uma senha longa', passwordConfirmation: 'uma senha longa' }),
  });
  assert.equal(activated.status, 200, await activated.clone().text());
  assert.equal(((await activated.json()) as Json).role, 'finance');

  const listed = await server.cli('user', 'list', '--company', companyId, '--json');
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual((listed.json as Json[]).map((m) => [m.email, m.role]), [['demo@loja.example', 'admin'], ['maria@loja.example', 'finance']]);

  const lastAdmin = await server.cli('user', 'set-role', '--company', companyId, '--email', 'demo@loja.example', '--role', 'viewer');
  assert.equal(lastAdmin.code, 1);
  assert.match(lastAdmin.stderr, /^error: A company needs at least one administrator/);

  const removed = await server.cli('user', 'remove', '--company', companyId, '--email', 'maria@loja.example');
  assert.equal(removed.code, 0, removed.stderr);
  assert.equal(removed.stdout, `maria@loja.example removed from ${companyId}\n`);
  // Each CLI run is a process of its own (a second or so): set-role's success, the refusals of a gone member and of a
  // bad role are tested in process (test/api/operator-user-commands.test.ts), through the same runCommand.
});
