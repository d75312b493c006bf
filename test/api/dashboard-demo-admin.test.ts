/**
 * The sandbox's demo admin: a demo company with no member (a first start, or
 * a data folder from before the dashboard) gets demo@loja.example as its
 * admin, with a random password in DATA_DIR/dashboard-password.txt (0600)
 * that signs in and that the start banner prints beside the dashboard's
 * address; a later start reads the file again and creates nothing.
 * The test app's company has the demo company's document, as an old data
 * folder's would. Nobody chose that password, so its hash costs
 * GENERATED_PASSWORD_SCRYPT's, not OWASP's; the next one the admin sets
 * costs OWASP's.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_ADMIN_EMAIL, describeDemo, ensureDemo } from '../../src/bootstrap.js';
import { isDomainError } from '../../src/lib/domain-error.js';
import { GENERATED_PASSWORD_SCRYPT, OWASP_SCRYPT, UserService } from '../../src/modules/users/index.js';
import { paramsOf, verifyPassword } from '../../src/modules/users/password.js';
import type { Runtime } from '../../src/runtime.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/db.js';
import { Browser } from '../helpers/dashboard.js';

for (const engine of engines()) {
  describe(`the sandbox's demo admin (${engine})`, () => {
    let t: TestApp;
    let dataDir: string;
    before(async () => {
      t = await startTestApp(engine);
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-demo-admin-'));
    });
    after(async () => {
      await t.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    test('created once with a private random password that signs in and is printed in the banner', async () => {
      const runtime = { config: { ...t.deps.config, env: 'sandbox', dataDir }, services: t.services } as unknown as Runtime;
      const demo = await ensureDemo(runtime);
      assert.ok(demo?.dashboard, 'the demo admin is there');
      const { email, password } = demo.dashboard;
      assert.equal(email, DEMO_ADMIN_EMAIL);
      assert.ok(password.length >= 16, password);
      const file = path.join(dataDir, 'dashboard-password.txt');
      assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'the password file is private');
      assert.equal(fs.readFileSync(file, 'utf8'), `${password}\n`);

      const browser = new Browser(t);
      const signedIn = await browser.signIn(email, password);
      assert.equal(signedIn.statusCode, 200, signedIn.body);
      assert.equal(signedIn.json().role, 'admin');
      assert.equal(signedIn.json().company.id, t.companyId);

      const banner = describeDemo(demo, 'http://localhost:3000');
      assert.ok(banner.includes(`  Dashboard: http://localhost:3000/dashboard  (sign in as demo@loja.example, password: ${password})`), banner);

      const again = await ensureDemo(runtime);
      assert.deepEqual(again?.dashboard, demo.dashboard, 'a later start prints the same password');
      assert.equal((await t.db.db.selectFrom('memberships').select('user_id').where('company_id', '=', t.companyId).execute()).length, 1);
    });

    test("its random password is hashed at GENERATED_PASSWORD_SCRYPT, a service's OWASP parameters notwithstanding; the one it chooses next at OWASP's", async () => {
      // A service with the production parameters (the test kit's are cheaper), over the same database.
      const { db, clock, newId, sealer } = t.deps;
      const users = new UserService({ db, clock, newId, sealer, audit: t.services.audit, env: 'sandbox', publicApiUrl: 'http://localhost:3000' });
      assert.deepEqual(users.passwordParams, OWASP_SCRYPT);
      // The company loses its members, as a data folder from before the dashboard has none.
      await t.db.db.deleteFrom('memberships').where('company_id', '=', t.companyId).execute();
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-demo-admin-'));
      try {
        const runtime = { config: { ...t.deps.config, env: 'sandbox', dataDir: folder }, services: { ...t.services, users } } as unknown as Runtime;
        const demo = await ensureDemo(runtime);
        assert.ok(demo?.dashboard, 'the demo admin is there again');
        const stored = async () => (await t.db.db.selectFrom('users').select('password_hash').where('email', '=', DEMO_ADMIN_EMAIL).executeTakeFirstOrThrow()).password_hash;
        assert.deepEqual(paramsOf(await stored()), GENERATED_PASSWORD_SCRYPT);
        assert.deepEqual(GENERATED_PASSWORD_SCRYPT, { logN: 10, r: 8, p: 1 });

        const signedIn = await users.signIn(DEMO_ADMIN_EMAIL, demo.dashboard.password, '203.0.113.9');
        assert.ok(!isDomainError(signedIn) && signedIn.stage === 'active', 'the generated password signs in');
        const live = await users.sessions.live(signedIn.token);
        assert.ok(live);
        const chosen = 'uma senha que a pessoa escolheu';
        assert.equal(await users.changePassword(live, demo.dashboard.password, chosen, '203.0.113.9'), undefined);
        assert.deepEqual(paramsOf(await stored()), OWASP_SCRYPT, 'a password a person types is hashed at OWASP\'s parameters');
        assert.equal(await verifyPassword(chosen, await stored()), true);
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    });
  });
}
