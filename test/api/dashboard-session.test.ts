/**
 * The dashboard's sessions: an invitation activated signs the new user in;
 * an invitation works once and for 72 hours; an existing user's invitation
 * takes only their password; a wrong e-mail and a wrong password get one
 * message; sessions end on sign-out, after 30 idle minutes and after 12
 * hours; a change without the CSRF token or the dashboard's Origin is 403
 * and does nothing; switching company; the routes are not in /openapi.json.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RECIPIENTS, runWorkerStep, startTestApp, type TestApp } from '../helpers/app.js';
import { assertError } from '../helpers/assert.js';
import { engines } from '../helpers/db.js';
import { Browser, invite, member, originOf, PASSWORD, sessionCookie, API } from '../helpers/dashboard.js';
import { settled } from '../helpers/outcome.js';

const MINUTE = 60_000;

for (const engine of engines()) {
  describe(`dashboard sessions (${engine})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
    });
    after(() => t.close());

    test('an invitation activated creates the user and signs them in; the token works once', async () => {
      const token = await invite(t, 'Ana@Loja.example', 'finance');
      const browser = new Browser(t);
      const shown = await browser.send('POST', '/invitations/lookup', { token });
      assert.equal(shown.statusCode, 200, shown.body);
      assert.deepEqual(shown.json(), { email: 'ana@loja.example', companyName: 'Loja Teste Ltda', role: 'finance' });

      const short = await browser.send('POST', '/invitations/accept', { token, name: 'Ana', password: 'short', passwordConfirmation: 'short' });
      assertError(short, 400, 'VALIDATION_ERROR', 'password');
      const differs = await browser.send('POST', '/invitations/accept', { token, name: 'Ana', password: PASSWORD, passwordConfirmation: `${PASSWORD}!` });
      assertError(differs, 400, 'VALIDATION_ERROR', 'passwordConfirmation');

      const res = await browser.send('POST', '/invitations/accept', { token, name: 'Ana', password: PASSWORD, passwordConfirmation: PASSWORD });
      assert.equal(res.statusCode, 200, res.body);
      const [session, device] = res.headers['set-cookie'] as string[];
      assert.match(session!, /^svc_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
      // A whole sign-in leaves the e-mail's device cookie (device-cookie.ts).
      assert.match(device!, /^svc_device=[A-Za-z0-9_-]{32}; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Strict$/);
      const me = res.json();
      assert.equal(me.stage, 'signed-in');
      assert.equal(me.user.email, 'ana@loja.example');
      assert.equal(me.company.id, t.companyId);
      assert.equal(me.role, 'finance');
      assert.ok(me.permissions.includes('sales.refund') && !me.permissions.includes('team.write'));
      assert.equal(me.environment, 'sandbox');
      assert.equal(me.totpSetupRequired, false);
      assert.deepEqual(me.companies, [{ id: t.companyId, name: 'Loja Teste Ltda', role: 'finance' }]);
      assert.equal((await browser.me()).user.email, 'ana@loja.example');

      // Only hashes are stored: neither the session id nor the invitation token is in the database.
      const sessions = await t.db.db.selectFrom('dashboard_sessions').select('id_hash').execute();
      assert.ok(sessions.every((s) => s.id_hash !== browser.cookie && /^[0-9a-f]{64}$/.test(s.id_hash)));
      const invitations = await t.db.db.selectFrom('invitations').select('token_hash').execute();
      assert.ok(invitations.every((i) => i.token_hash !== token));

      assertError(await new Browser(t).send('POST', '/invitations/lookup', { token }), 404, 'NOT_FOUND');
      const again = await new Browser(t).send('POST', '/invitations/accept', { token, name: 'Eve', password: PASSWORD, passwordConfirmation: PASSWORD });
      assertError(again, 404, 'NOT_FOUND');
    });

    test('an invitation expires after 72 hours', async () => {
      const token = await invite(t, 'late@loja.example', 'viewer');
      t.clock.advance(72 * 60 * MINUTE - 1_000);
      assert.equal((await new Browser(t).send('POST', '/invitations/lookup', { token })).statusCode, 200);
      t.clock.advance(1_000);
      assertError(await new Browser(t).send('POST', '/invitations/lookup', { token }), 404, 'NOT_FOUND');
      const res = await new Browser(t).send('POST', '/invitations/accept', { token, name: 'Late', password: PASSWORD, passwordConfirmation: PASSWORD });
      assertError(res, 404, 'NOT_FOUND');
    });

    test("an existing user's invitation to another company takes only their password, and the user can switch company", async () => {
      const other = settled(await t.services.companies.createCompany('Outra Loja Ltda', RECIPIENTS[0]!));
      await member(t, 'bia@loja.example', 'viewer');
      const token = await invite(t, 'bia@loja.example', 'developer', other.id);
      const browser = new Browser(t);
      assert.equal((await browser.send('POST', '/invitations/lookup', { token })).json().existingUser, undefined);
      assertError(await browser.send('POST', '/invitations/accept', { token, password: 'not the password' }), 401, 'UNAUTHORIZED');
      const res = await browser.send('POST', '/invitations/accept', { token, password: PASSWORD });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().company.id, other.id);
      assert.equal(res.json().role, 'developer');
      assert.deepEqual(res.json().companies.map((c: { role: string }) => c.role).sort(), ['developer', 'viewer']);

      const switched = await browser.send('PUT', '/session/company', { companyId: t.companyId });
      assert.equal(switched.statusCode, 200, switched.body);
      assert.equal(switched.json().role, 'viewer');
      assert.equal((await browser.me()).company.id, t.companyId);
      const unknown = await t.services.companies.createCompany('Sem Acesso Ltda', RECIPIENTS[1]!);
      assertError(await browser.send('PUT', '/session/company', { companyId: settled(unknown).id }), 404, 'NOT_FOUND');
    });

    test('sign-in: the right password opens a session; a wrong e-mail and a wrong password get the same answer', async () => {
      await member(t, 'caio@loja.example', 'developer');
      const browser = new Browser(t);
      const ok = await browser.signIn('  CAIO@loja.example ');
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().user.email, 'caio@loja.example');
      const wrongPassword = await new Browser(t).signIn('caio@loja.example', 'wrong password!');
      const wrongEmail = await new Browser(t).signIn('nobody@loja.example', PASSWORD);
      assertError(wrongPassword, 401, 'UNAUTHORIZED');
      assertError(wrongEmail, 401, 'UNAUTHORIZED');
      assert.equal(wrongPassword.body, wrongEmail.body);
      assert.equal(wrongPassword.json().message, 'Wrong e-mail or password');
      assert.equal(sessionCookie(t, wrongPassword), undefined);
      const pt = await t.app.inject({ method: 'POST', url: `${API}/session`, headers: { origin: originOf(t), 'accept-language': 'pt-BR' }, payload: { email: 'x@y.example', password: 'x' } });
      assert.equal(pt.json().message, 'E-mail ou senha incorretos');
      assertError(await t.app.inject({ method: 'POST', url: `${API}/session`, payload: { email: 'caio@loja.example', password: PASSWORD } }), 403, 'FORBIDDEN', 'Origin');
    });

    test('sign-out ends the session on the server', async () => {
      const browser = await member(t, 'davi@loja.example', 'viewer');
      const cookie = browser.cookie;
      const res = await browser.send('DELETE', '/session');
      assert.equal(res.statusCode, 204);
      assert.match(String(res.headers['set-cookie']), /^svc_session=; .*Max-Age=0/);
      browser.cookie = cookie;
      assertError(await browser.send('GET', '/session'), 401, 'UNAUTHORIZED');
    });

    test('a session ends after 30 idle minutes, and after 12 hours however busy', async () => {
      const idle = await member(t, 'edu@loja.example', 'viewer');
      t.clock.advance(29 * MINUTE);
      assert.equal((await idle.send('GET', '/session')).statusCode, 200);
      t.clock.advance(29 * MINUTE);
      assert.equal((await idle.send('GET', '/session')).statusCode, 200, 'each request restarts the idle time');
      t.clock.advance(30 * MINUTE);
      assertError(await idle.send('GET', '/session'), 401, 'UNAUTHORIZED');

      const busy = new Browser(t);
      assert.equal((await busy.signIn('edu@loja.example')).statusCode, 200);
      for (let elapsed = 0; elapsed < 12 * 60 - 20; elapsed += 20) {
        t.clock.advance(20 * MINUTE);
        assert.equal((await busy.send('GET', '/session')).statusCode, 200, `after ${elapsed + 20} min`);
      }
      t.clock.advance(20 * MINUTE);
      assertError(await busy.send('GET', '/session'), 401, 'UNAUTHORIZED');

      // The worker deletes what is past its absolute expiry (an idle one waits for its 12 hours).
      const sessions = () => t.db.db.selectFrom('dashboard_sessions').select('id_hash').execute();
      const before = (await sessions()).length;
      assert.ok(before > 0);
      t.clock.advance(12 * 60 * MINUTE);
      await runWorkerStep(t, 'purge-dashboard-sessions');
      assert.equal((await sessions()).length, 0);
    });

    test('a change without the CSRF token, with a wrong one or from another Origin is 403 and does nothing', async () => {
      const admin = await member(t, 'fabi@loja.example', 'admin');
      const change = { requireTotp: true };
      const requireTotp = async () => (await t.db.db.selectFrom('companies').select('require_totp').where('id', '=', t.companyId).executeTakeFirstOrThrow()).require_totp;
      assertError(await admin.send('PUT', '/team/settings', change, { 'x-csrf-token': '' }), 403, 'FORBIDDEN', 'X-CSRF-Token');
      assertError(await admin.send('PUT', '/team/settings', change, { 'x-csrf-token': 'A'.repeat(43) }), 403, 'FORBIDDEN', 'X-CSRF-Token');
      assertError(await admin.send('PUT', '/team/settings', change, { origin: 'https://evil.example' }), 403, 'FORBIDDEN', 'Origin');
      assertError(await admin.send('DELETE', '/session', undefined, { origin: 'https://evil.example' }), 403, 'FORBIDDEN', 'Origin');
      assert.equal(await requireTotp(), false);
      assert.equal((await admin.send('GET', '/session')).statusCode, 200, 'the refused sign-out did not end the session');
      const res = await admin.send('PUT', '/team/settings', { requireTotp: false });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { requireTotp: false });
    });

    test('over HTTPS the cookie is __Host-svc_session and Secure', async () => {
      const https = await startTestApp(engine, { env: { PUBLIC_API_URL: 'https://pay.loja.example' } });
      try {
        const browser = await member(https, 'gil@loja.example', 'viewer');
        assert.ok(browser.cookie);
        const res = await browser.signIn('gil@loja.example');
        const [session, device] = res.headers['set-cookie'] as string[];
        assert.match(session!, /^__Host-svc_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
        assert.match(device!, /^__Host-svc_device=[A-Za-z0-9_-]{32}; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Strict; Secure$/);
      } finally {
        await https.close();
      }
    });

    test('no dashboard route is in the API reference', async () => {
      const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      assert.deepEqual(Object.keys(spec.paths).filter((p) => p.startsWith('/dashboard')), []);
    });
  });
}
