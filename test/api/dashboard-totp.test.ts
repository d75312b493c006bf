/**
 * Two-step verification: enrolment (the password re-entered) shows a
 * secret, its otpauth:// URI and a QR code, and turns on only with a code the
 * app computes (a wrong one is refused); sign-in then asks for the code (a code is not accepted twice,
 * a wrong one counts as a failed sign-in); a recovery code works once; a
 * company that requires it sends its members without it to set it up first.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { assertError } from '../helpers/assert.js';
import { engines } from '../helpers/db.js';
import { Browser, codeAt, member, PASSWORD } from '../helpers/dashboard.js';
import { OWASP_SCRYPT, UserService } from '../../src/modules/users/index.js';

async function enrol(browser: Browser, t: TestApp): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await browser.send('POST', '/account/totp', { password: PASSWORD });
  assert.equal(started.statusCode, 200, started.body);
  const { secret } = started.json();
  const confirmed = await browser.send('POST', '/account/totp/confirm', { code: codeAt(t, secret) });
  assert.equal(confirmed.statusCode, 200, confirmed.body);
  return { secret, recoveryCodes: confirmed.json().recoveryCodes };
}

for (const engine of engines()) {
  describe(`dashboard two-step verification (${engine})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
    });
    after(() => t.close());

    test('enrolment: secret, URI and QR code; a wrong code is refused; the right one turns it on with 10 recovery codes', async () => {
      const browser = await member(t, 'tina@loja.example', 'finance');
      assertError(await browser.send('POST', '/account/totp'), 400, 'VALIDATION_ERROR', 'body');
      assertError(await browser.send('POST', '/account/totp', { password: 'not my password' }), 401, 'UNAUTHORIZED');
      const started = await browser.send('POST', '/account/totp', { password: PASSWORD });
      assert.equal(started.statusCode, 200, started.body);
      const { secret, uri, qrCode } = started.json();
      assert.match(secret, /^[A-Z2-7]{32}$/, '20 bytes in base32');
      assert.equal(uri, `otpauth://totp/Painel:tina%40loja.example?secret=${secret}&issuer=Painel&algorithm=SHA1&digits=6&period=30`);
      assert.match(qrCode, /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
      const sealed = await t.db.db.selectFrom('users').select('totp_secret_sealed').where('email', '=', 'tina@loja.example').executeTakeFirstOrThrow();
      assert.ok(sealed.totp_secret_sealed?.startsWith('v1.') && !sealed.totp_secret_sealed.includes(secret), 'the secret is sealed at rest');

      const wrong = codeAt(t, secret) === '000000' ? '111111' : '000000';
      assertError(await browser.send('POST', '/account/totp/confirm', { code: wrong }), 400, 'VALIDATION_ERROR', 'code');
      assert.equal((await browser.me()).user.totpEnabled, false);

      const confirmed = await browser.send('POST', '/account/totp/confirm', { code: codeAt(t, secret) });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      const { recoveryCodes } = confirmed.json();
      assert.equal(recoveryCodes.length, 10);
      assert.equal(new Set(recoveryCodes).size, 10);
      for (const code of recoveryCodes) assert.match(code, /^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);
      assert.equal((await browser.me()).user.totpEnabled, true);
    });

    test('sign-in asks for the code; a used or wrong code is refused; a recovery code works once', async () => {
      const browser = await member(t, 'uma@loja.example', 'viewer');
      const { secret, recoveryCodes } = await enrol(browser, t);

      const signingIn = new Browser(t);
      const first = await signingIn.signIn('uma@loja.example');
      assert.equal(first.statusCode, 200, first.body);
      assert.deepEqual(first.json(), { stage: 'totp' });
      assert.ok(signingIn.cookie, 'a half-open session');
      assertError(await signingIn.send('GET', '/session'), 401, 'UNAUTHORIZED', undefined);
      assertError(await signingIn.send('GET', '/team'), 401, 'UNAUTHORIZED');
      // The code the enrolment used (same step) is not accepted again.
      assertError(await signingIn.send('POST', '/session/totp', { code: codeAt(t, secret) }), 401, 'UNAUTHORIZED');
      t.clock.advance(30_000);
      const halfOpen = signingIn.cookie;
      const done = await signingIn.send('POST', '/session/totp', { code: codeAt(t, secret) });
      assert.equal(done.statusCode, 200, done.body);
      assert.equal(done.json().user.email, 'uma@loja.example');
      assert.notEqual(signingIn.cookie, halfOpen, 'the session gets a new id');
      assert.equal((await signingIn.send('GET', '/session')).statusCode, 200);

      const withRecovery = new Browser(t);
      await withRecovery.signIn('uma@loja.example');
      const recovered = await withRecovery.send('POST', '/session/totp', { code: recoveryCodes[3]!.toUpperCase() });
      assert.equal(recovered.statusCode, 200, recovered.body);
      const again = new Browser(t);
      await again.signIn('uma@loja.example');
      assertError(await again.send('POST', '/session/totp', { code: recoveryCodes[3]! }), 401, 'UNAUTHORIZED');
      assert.equal((await again.send('POST', '/session/totp', { code: recoveryCodes[4]! })).statusCode, 200);
    });

    test('turning it off takes the password and a current code (or a recovery code), and is refused while the company requires it', async () => {
      const admin = await member(t, 'vera@loja.example', 'admin');
      const { secret } = await enrol(admin, t);
      t.clock.advance(30_000);
      assertError(await admin.send('DELETE', '/account/totp', { password: PASSWORD }), 400, 'VALIDATION_ERROR', 'code');
      assertError(await admin.send('DELETE', '/account/totp', { password: 'not my password', code: codeAt(t, secret) }), 401, 'UNAUTHORIZED');
      const wrong = codeAt(t, secret) === '000000' ? '111111' : '000000';
      assertError(await admin.send('DELETE', '/account/totp', { password: PASSWORD, code: wrong }), 401, 'UNAUTHORIZED');
      assert.equal((await admin.me()).user.totpEnabled, true, 'the password alone does not turn it off');
      assert.equal((await admin.send('PUT', '/team/settings', { requireTotp: true })).statusCode, 200);
      assertError(await admin.send('DELETE', '/account/totp', { password: PASSWORD, code: codeAt(t, secret) }), 403, 'FORBIDDEN');
      assert.equal((await admin.send('PUT', '/team/settings', { requireTotp: false })).statusCode, 200);
      assert.equal((await admin.send('DELETE', '/account/totp', { password: PASSWORD, code: codeAt(t, secret) })).statusCode, 204);
      assert.equal((await admin.me()).user.totpEnabled, false);
      const signIn = await new Browser(t).signIn('vera@loja.example');
      assert.equal(signIn.json().stage, 'signed-in', 'no code asked any more');
    });

    test('a company that requires it: a member without it must set it up before anything else', async () => {
      const admin = await member(t, 'wil@loja.example', 'admin');
      await enrol(admin, t);
      const viewer = await member(t, 'xena@loja.example', 'viewer');
      assert.equal((await viewer.send('GET', '/team')).statusCode, 200);
      assert.equal((await admin.send('PUT', '/team/settings', { requireTotp: true })).statusCode, 200);
      assert.equal((await viewer.me()).totpSetupRequired, true);
      assertError(await viewer.send('GET', '/team'), 403, 'FORBIDDEN');
      assertError(await viewer.send('GET', '/audit'), 403, 'FORBIDDEN');
      await enrol(viewer, t);
      assert.equal((await viewer.me()).totpSetupRequired, false);
      assert.equal((await viewer.send('GET', '/team')).statusCode, 200);
      assert.equal((await admin.send('PUT', '/team/settings', { requireTotp: false })).statusCode, 200);
    });

    test("the service's passwords use OWASP's parameters unless given others", () => {
      const { db, clock, newId, sealer } = t.deps;
      const users = new UserService({ db, clock, newId, sealer, audit: t.services.audit, env: 'sandbox', publicApiUrl: 'http://localhost:3000' });
      assert.deepEqual(users.passwordParams, OWASP_SCRYPT);
      assert.notDeepEqual(t.services.users.passwordParams, OWASP_SCRYPT, 'the test kit passes cheaper ones');
    });
  });
}
