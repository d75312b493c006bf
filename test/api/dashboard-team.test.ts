/**
 * The team and the audit log: each role's answers on the team routes; a role
 * change and a removal take effect on the member's next request; the last
 * admin cannot be demoted or removed (409 LAST_ADMIN); password changes end
 * the other sessions; the audit log records each action, is filtered by
 * user and action and paged, and loses entries over a year old.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, runWorkerStep, type TestApp } from '../helpers/app.js';
import { assertError } from '../helpers/assert.js';
import { engines } from '../helpers/db.js';
import { Browser, member, PASSWORD } from '../helpers/dashboard.js';
import { settled } from '../helpers/outcome.js';

for (const engine of engines()) {
  describe(`dashboard team and audit (${engine})`, () => {
    let t: TestApp;
    let admin: Browser;
    before(async () => {
      t = await startTestApp(engine);
      admin = await member(t, 'admin@loja.example', 'admin');
    });
    after(() => t.close());

    const userIdOf = async (email: string) => (await t.db.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

    test("each role's answers on the team routes", async () => {
      const target = await userIdOf('admin@loja.example');
      for (const role of ['finance', 'developer', 'viewer'] as const) {
        const browser = await member(t, `${role}@loja.example`, role);
        const read = await browser.send('GET', '/team');
        if (role === 'viewer') assert.equal(read.statusCode, 200, read.body);
        else assertError(read, 403, 'FORBIDDEN');
        assertError(await browser.send('POST', '/team/invitations', { email: 'new@loja.example', role: 'admin' }), 403, 'FORBIDDEN');
        assertError(await browser.send('PUT', `/team/members/${target}`, { role: 'viewer' }), 403, 'FORBIDDEN');
        assertError(await browser.send('DELETE', `/team/members/${target}`), 403, 'FORBIDDEN');
        assertError(await browser.send('PUT', '/team/settings', { requireTotp: true }), 403, 'FORBIDDEN');
        const audit = await browser.send('GET', '/audit');
        if (role === 'viewer') assert.equal(audit.statusCode, 200);
        else assertError(audit, 403, 'FORBIDDEN');
      }
      assert.equal((await t.db.db.selectFrom('invitations').select('email').where('email', '=', 'new@loja.example').execute()).length, 0, 'nothing done');
      assert.equal((await admin.send('GET', '/team')).json().members.find((m: { email: string }) => m.email === 'admin@loja.example').role, 'admin');
      assertError(await new Browser(t).send('GET', '/team'), 401, 'UNAUTHORIZED');
    });

    test('an admin invites: the URL carries the token in its fragment; inviting a member again is refused', async () => {
      const res = await admin.send('POST', '/team/invitations', { email: 'Novo@Loja.example', role: 'developer' });
      assert.equal(res.statusCode, 201, res.body);
      const { url, expiresAt } = res.json();
      assert.match(url, /^http:\/\/localhost:3000\/dashboard\/invitation#[A-Za-z0-9_-]{43}$/);
      assert.equal(expiresAt, new Date(t.clock.now().getTime() + 72 * 3_600_000).toISOString());
      assertError(await admin.send('POST', '/team/invitations', { email: 'finance@loja.example', role: 'viewer' }), 400, 'VALIDATION_ERROR', 'email');
      assertError(await admin.send('POST', '/team/invitations', { email: 'not an e-mail', role: 'viewer' }), 400, 'VALIDATION_ERROR', 'email');
    });

    test("a role change and a removal take effect on the member's next request", async () => {
      const browser = await member(t, 'rui@loja.example', 'admin');
      const rui = await userIdOf('rui@loja.example');
      assert.equal((await browser.send('GET', '/team')).statusCode, 200);
      const changed = await admin.send('PUT', `/team/members/${rui}`, { role: 'developer' });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.deepEqual(changed.json(), { userId: rui, email: 'rui@loja.example', name: 'rui', role: 'developer', totpEnabled: false });
      assertError(await browser.send('GET', '/team'), 403, 'FORBIDDEN');
      assert.equal((await browser.me()).role, 'developer');

      assert.equal((await admin.send('DELETE', `/team/members/${rui}`)).statusCode, 200);
      assertError(await browser.send('GET', '/session'), 401, 'UNAUTHORIZED');
      assertError(await new Browser(t).signIn('rui@loja.example'), 401, 'UNAUTHORIZED');
      assertError(await admin.send('DELETE', `/team/members/${rui}`), 404, 'NOT_FOUND');
    });

    test('the last admin cannot be demoted or removed', async () => {
      const solo = await startTestApp(engine);
      try {
        const only = await member(solo, 'solo@loja.example', 'admin');
        const id = (await solo.db.db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
        const demoted = await only.send('PUT', `/team/members/${id}`, { role: 'viewer' });
        assertError(demoted, 409, 'LAST_ADMIN');
        assert.match(demoted.json().message, /at least one administrator/);
        assertError(await only.send('DELETE', `/team/members/${id}`), 409, 'LAST_ADMIN');
        assert.equal((await only.me()).role, 'admin');
        const pt = await only.send('DELETE', `/team/members/${id}`, undefined, { 'accept-language': 'pt-BR' });
        assert.match(pt.json().message, /pelo menos um administrador/);
        // With a second admin, the first may step down.
        await member(solo, 'dois@loja.example', 'admin');
        assert.equal((await only.send('PUT', `/team/members/${id}`, { role: 'viewer' })).statusCode, 200);
      } finally {
        await solo.close();
      }
    });

    test("a password change ends the user's other sessions and keeps this one", async () => {
      const here = await member(t, 'sara@loja.example', 'viewer');
      const there = new Browser(t);
      await there.signIn('sara@loja.example');
      assertError(await here.send('POST', '/account/password', { currentPassword: 'wrong password', newPassword: 'a new password!' }), 401, 'UNAUTHORIZED');
      assertError(await here.send('POST', '/account/password', { currentPassword: PASSWORD, newPassword: 'short' }), 400, 'VALIDATION_ERROR', 'newPassword');
      assert.equal((await here.send('POST', '/account/password', { currentPassword: PASSWORD, newPassword: 'a new password!' })).statusCode, 204);
      assert.equal((await here.send('GET', '/session')).statusCode, 200);
      assertError(await there.send('GET', '/session'), 401, 'UNAUTHORIZED');
      assertError(await new Browser(t).signIn('sara@loja.example'), 401, 'UNAUTHORIZED');
      assert.equal((await new Browser(t).signIn('sara@loja.example', 'a new password!')).statusCode, 200);
    });

    test('the audit log records the actions, is filtered by user and action, paged, and purged after a year', async () => {
      const audited = await startTestApp(engine);
      try {
        const boss = await member(audited, 'boss@loja.example', 'admin');
        const bossId = (await audited.db.db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
        await boss.send('POST', '/team/invitations', { email: 'ze@loja.example', role: 'viewer' });
        const ze = await member(audited, 'ze@loja.example', 'viewer');
        const zeId = (await ze.me()).user.id;
        await new Browser(audited).signIn('ze@loja.example', 'wrong password!');
        await new Browser(audited).signIn('nobody@loja.example', 'wrong password!');
        await boss.send('PUT', `/team/members/${zeId}`, { role: 'finance' });
        await boss.send('PUT', '/team/settings', { requireTotp: false });
        await boss.send('POST', '/account/password', { currentPassword: PASSWORD, newPassword: 'another password' });
        await boss.send('DELETE', `/team/members/${zeId}`);
        await boss.send('DELETE', '/session');
        await boss.signIn('boss@loja.example', 'another password');

        const all = await boss.send('GET', '/audit?limit=100');
        assert.equal(all.statusCode, 200, all.body);
        const page = all.json();
        assert.equal(page.hasMore, false);
        assert.equal(page.nextCursor, null);
        const actions = page.data.map((e: { action: string }) => e.action).reverse();
        assert.deepEqual(actions, [
          'member.invited', // the operator's invitation of boss
          'member.joined',
          'session.signed_in',
          'member.invited',
          'member.invited',
          'member.joined',
          'session.signed_in',
          'session.sign_in_failed',
          'member.role_changed',
          'company.totp_required',
          'password.changed',
          'member.removed',
          'session.signed_out',
          'session.signed_in',
        ]);
        const changed = page.data.find((e: { action: string }) => e.action === 'member.role_changed');
        assert.deepEqual(
          { userId: changed.userId, email: changed.email, target: changed.target, ip: changed.ip, details: changed.details },
          { userId: bossId, email: 'boss@loja.example', target: zeId, ip: '127.0.0.1', details: { from: 'viewer', to: 'finance' } },
        );
        assert.match(changed.id, /^aud_/);
        assert.equal(changed.at, audited.clock.now().toISOString());
        assert.ok(!JSON.stringify(page).includes(PASSWORD) && !JSON.stringify(page).includes('another password'), 'no password in the log');

        const failed = (await boss.send('GET', '/audit?action=session.sign_in_failed')).json();
        assert.deepEqual(failed.data.map((e: { email: string; userId: string }) => [e.email, e.userId]), [['ze@loja.example', zeId]], 'an unknown e-mail is not recorded');
        const byZe = (await boss.send('GET', `/audit?userId=${zeId}`)).json();
        assert.deepEqual(byZe.data.map((e: { action: string }) => e.action), ['session.sign_in_failed', 'session.signed_in', 'member.joined']);
        assertError(await boss.send('GET', '/audit?action=nope'), 400, 'VALIDATION_ERROR');

        const first = (await boss.send('GET', '/audit?limit=5')).json();
        assert.equal(first.data.length, 5);
        assert.equal(first.hasMore, true);
        const second = (await boss.send('GET', `/audit?limit=5&cursor=${first.nextCursor}`)).json();
        assert.deepEqual(second.data.map((e: { id: string }) => e.id), page.data.slice(5, 10).map((e: { id: string }) => e.id));

        audited.clock.advance(365 * 86_400_000 + 1);
        await runWorkerStep(audited, 'purge-audit-log');
        assert.equal((await audited.db.db.selectFrom('audit_log').select('id').execute()).length, 0);
      } finally {
        await audited.close();
      }
    });

    test('another company is not reachable: its members are 404 to this admin', async () => {
      const other = settled(await t.services.companies.createCompany('Vizinha Ltda', '11444777000161'));
      const neighbour = await member(t, 'viz@loja.example', 'admin', other.id);
      const id = (await neighbour.me()).user.id;
      assertError(await admin.send('PUT', `/team/members/${id}`, { role: 'viewer' }), 404, 'NOT_FOUND');
      assertError(await admin.send('DELETE', `/team/members/${id}`), 404, 'NOT_FOUND');
    });
  });
}
