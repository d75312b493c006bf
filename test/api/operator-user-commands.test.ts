/**
 * `svc user …` run in process (runCommand, what the CLI and the server's
 * socket both call): the text and --json outputs, the exit codes of a
 * refusal (1) and of a usage error (2). test/e2e/dashboard-operator.test.ts
 * runs them as processes beside a server.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCommand, type CommandLine } from '../../src/operator/commands.js';
import type { Runtime } from '../../src/runtime.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/db.js';
import { member } from '../helpers/dashboard.js';

for (const engine of engines()) {
  describe(`svc user commands (${engine})`, () => {
    let t: TestApp;
    let run: (words: string[], values?: CommandLine['values']) => ReturnType<typeof runCommand>;
    before(async () => {
      t = await startTestApp(engine);
      const runtime = { config: t.deps.config, services: t.services, deps: t.deps } as unknown as Runtime;
      run = (words, values = {}) => runCommand(runtime, { words, values });
    });
    after(() => t.close());

    test('invite prints the URL (text and --json); list; set-role; remove; their refusals', async () => {
      const text = await run(['user', 'invite'], { company: t.companyId, email: 'ana@loja.example', role: 'admin' });
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /^invitation \(single use, until 2026-11-24T12:00:00\.000Z\):\nhttp:\/\/localhost:3000\/dashboard\/invitation#[A-Za-z0-9_-]{43}\n$/);
      const json = await run(['user', 'invite'], { company: t.companyId, email: 'bia@loja.example', role: 'viewer', json: true });
      assert.match(JSON.parse(json.stdout).url, /^http:\/\/localhost:3000\/dashboard\/invitation#/);

      await member(t, 'caio@loja.example', 'admin');
      await member(t, 'davi@loja.example', 'developer');
      const listed = await run(['user', 'list'], { company: t.companyId });
      assert.match(listed.stdout, /^usr_\S+ {2}caio@loja\.example {2}admin {2}caio\nusr_\S+ {2}davi@loja\.example {2}developer {2}davi\n$/);

      const refused = await run(['user', 'set-role'], { company: t.companyId, email: 'caio@loja.example', role: 'viewer' });
      assert.deepEqual([refused.code, refused.stderr], [1, 'error: A company needs at least one administrator: make another member an administrator first\n']);
      const set = await run(['user', 'set-role'], { company: t.companyId, email: 'DAVI@loja.example', role: 'admin' });
      assert.deepEqual([set.code, set.stdout], [0, `davi@loja.example is now admin of ${t.companyId}\n`]);
      const removed = await run(['user', 'remove'], { company: t.companyId, email: 'caio@loja.example', json: true });
      assert.equal(removed.code, 0, removed.stderr);
      const gone = await run(['user', 'remove'], { company: t.companyId, email: 'caio@loja.example' });
      assert.deepEqual([gone.code, gone.stderr], [1, `error: caio@loja.example is not a member of ${t.companyId}\n`]);
      const noCompany = await run(['user', 'list'], { company: 'cmp_nope' });
      assert.deepEqual([noCompany.code, noCompany.stderr], [1, 'error: no company cmp_nope\n']);
      const badRole = await run(['user', 'invite'], { company: t.companyId, email: 'x@loja.example', role: 'owner' });
      assert.deepEqual([badRole.code, badRole.stderr], [2, '--role must be one of admin, finance, developer, viewer\n']);
      const noEmail = await run(['user', 'invite'], { company: t.companyId, role: 'viewer' });
      assert.deepEqual([noEmail.code, noEmail.stderr], [2, 'missing --email\n']);

      const audit = await t.db.db.selectFrom('audit_log').select(['email', 'ip', 'action']).where('action', '=', 'member.removed').execute();
      assert.deepEqual(audit, [{ email: 'operator (svc)', ip: 'local', action: 'member.removed' }], "the operator's changes are audited as the operator's");
    });
  });
}
