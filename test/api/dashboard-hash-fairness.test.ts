/**
 * Password hashing shared fairly: one hash in flight per e-mail (so per user,
 * and per session), further attempts refused at once with 429 before the
 * process's hashing gate (2 running, 64 waiting). A session sending 25 wrong
 * current passwords at once gets one checked; a flood of sign-ins on known
 * e-mails from many addresses, and a session flooding re-checks, at the
 * default settings and OWASP's scrypt parameters, leave another person's
 * sign-in under 3 s, or under four times a lone sign-in when the hash alone
 * is slower than that allows (the e-mails under attack have failures, so
 * their hashes wait in the gate's second lane).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { assertError } from '../helpers/assert.js';
import { engines } from '../helpers/db.js';
import { Browser, member } from '../helpers/dashboard.js';

const randomAddress = () => `10.${[...randomBytes(3)].join('.')}`;

for (const engine of engines()) {
  describe(`dashboard password hashing under load (${engine})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
    });
    after(() => t.close());

    test('a session sending 25 wrong current passwords at once gets one checked, the others 429 at once', async () => {
      const session = await member(t, 'pressa@loja.example', 'viewer');
      const answers = await Promise.all(
        Array.from({ length: 25 }, (_, i) => {
          session.address = randomAddress();
          return session.send('POST', '/account/password', { currentPassword: `wrong password ${i}`, newPassword: 'uma frase nova e longa' });
        }),
      );
      const statuses = answers.map((a) => a.statusCode);
      assert.equal(statuses.filter((s) => s === 401).length, 1, statuses.join(' '));
      assert.equal(statuses.filter((s) => s === 429).length, 24, statuses.join(' '));
      const busy = answers.find((a) => a.statusCode === 429)!;
      assertError(busy, 429, 'RATE_LIMITED');
      assert.equal(busy.headers['retry-after'], '1');
      assert.match(busy.json().message, /being checked/);
    });

    test("a flood on known e-mails from many addresses, and a session's flood of re-checks, leave another person's sign-in under the bound", async () => {
      // N = 2^15, a quarter of OWASP's (the test kit's 2^10 would leave the database's time, not the hash's): the gate's
      // behaviour does not depend on N, and OWASP's under this test's load takes a minute on a loaded 2-core machine.
      const deployed = await startTestApp(engine, { env: { DASHBOARD_SIGNIN_PER_IP_PER_MINUTE: '20' }, passwordParams: { logN: 15, r: 8, p: 1 } });
      try {
        const browsers = [];
        for (const email of ['conhecida@loja.example', 'alvo1@loja.example', 'alvo2@loja.example', 'atacante@loja.example']) browsers.push(await member(deployed, email, 'viewer'));
        const attacker = browsers[3]!;
        const signIn = async () => {
          const started = performance.now();
          const res = await new Browser(deployed).signIn('conhecida@loja.example');
          assert.equal(res.statusCode, 200, res.body);
          return performance.now() - started;
        };
        const alone = [await signIn(), await signIn()];

        let flooding = true;
        const sent: number[] = [];
        /** When each of the flood's checked (401) attempts was answered. */
        const checkedAt: number[] = [];
        const loop = async (send: () => Promise<number>) => {
          while (flooding) {
            const status = await send();
            sent.push(status);
            if (status === 401) checkedAt.push(performance.now());
            await sleep(100);
          }
        };
        const wrongSignIn = (email: string) => () => {
          const browser = new Browser(deployed);
          browser.address = randomAddress();
          return browser.signIn(email, 'not the password').then((r) => r.statusCode);
        };
        const wrongRecheck = () => {
          attacker.address = randomAddress();
          return attacker.send('POST', '/account/password', { currentPassword: 'not the password', newPassword: 'uma frase nova e longa' }).then((r) => r.statusCode);
        };
        const flood = [
          ...Array.from({ length: 15 }, () => loop(wrongSignIn('alvo1@loja.example'))),
          ...Array.from({ length: 15 }, () => loop(wrongSignIn('alvo2@loja.example'))),
          ...Array.from({ length: 10 }, () => loop(wrongRecheck)),
        ];
        let underFlood: number;
        let during: number;
        try {
          await sleep(500);
          // Two sign-ins under the flood, the faster counted: a loaded machine's pauses are not the gate's. The flood's
          // checks answered during the first tell whether it waited behind them.
          const started = performance.now();
          const first = await signIn();
          during = checkedAt.filter((at) => at >= started).length;
          underFlood = Math.min(first, await signIn());
        } finally {
          flooding = false;
          await Promise.all(flood);
        }
        // Lone sign-ins before and after the flood, the slowest counted: the machine's load (other test files) moves in between.
        alone.push(await signIn(), await signIn());
        const lone = Math.max(...alone);
        const bound = Math.max(3_000, 4 * lone);
        const counts = `${sent.length} flood requests: ${sent.filter((s) => s === 401).length} checked (${during} while the sign-in ran), ${sent.filter((s) => s === 429).length} refused`;
        assert.ok(underFlood <= bound, `under the flood ${Math.round(underFlood)} ms, alone ${Math.round(lone)} ms, bound ${Math.round(bound)} ms; ${counts}`);
        // Its check did not wait behind the flood's (40 were answered meanwhile before the lanes): those running beside it,
        // and the few answered while its statements waited for the database on a loaded machine.
        assert.ok(during <= 10, counts);
        assert.ok(sent.filter((s) => s === 429).length > sent.filter((s) => s === 401).length, counts);
        assert.ok(!sent.includes(503), 'the hashing gate was never full');
      } finally {
        await deployed.close();
      }
    });

    test('a flood of sign-ins on fresh e-mails from many addresses leaves a person who signed in before from this browser under the bound', async () => {
      // Fresh e-mails have no failure, so their hashes share the gate's first lane with anyone's first sign-in; the device
      // cookie a whole sign-in left puts this browser's next check in the device lane, ahead of them (device-cookie.ts).
      const deployed = await startTestApp(engine, { env: { DASHBOARD_SIGNIN_PER_IP_PER_MINUTE: '20' }, passwordParams: { logN: 15, r: 8, p: 1 } });
      try {
        await member(deployed, 'de-casa@loja.example', 'viewer');
        const person = new Browser(deployed);
        const signIn = async () => {
          const started = performance.now();
          const res = await person.signIn('de-casa@loja.example');
          assert.equal(res.statusCode, 200, res.body);
          return performance.now() - started;
        };
        const alone = [await signIn(), await signIn()];
        assert.ok(person.device, 'a whole sign-in leaves the device cookie');

        let flooding = true;
        const sent: number[] = [];
        const checkedAt: number[] = [];
        const loop = async () => {
          while (flooding) {
            const stranger = new Browser(deployed);
            stranger.address = randomAddress();
            const { statusCode } = await stranger.signIn(`${randomBytes(8).toString('hex')}@fora.example`, 'not the password');
            sent.push(statusCode);
            if (statusCode === 401) checkedAt.push(performance.now());
          }
        };
        const flood = Array.from({ length: 40 }, loop);
        let underFlood: number;
        let during: number;
        try {
          await sleep(1_000);
          const started = performance.now();
          const first = await signIn();
          during = checkedAt.filter((at) => at >= started).length;
          underFlood = Math.min(first, await signIn());
        } finally {
          flooding = false;
          await Promise.all(flood);
        }
        alone.push(await signIn(), await signIn());
        const lone = Math.max(...alone);
        const bound = Math.max(3_000, 4 * lone);
        const counts = `${sent.length} flood requests: ${sent.filter((s) => s === 401).length} checked (${during} while the sign-in ran)`;
        assert.ok(underFlood <= bound, `under the flood ${Math.round(underFlood)} ms, alone ${Math.round(lone)} ms, bound ${Math.round(bound)} ms; ${counts}`);
        // Its hash did not wait behind the 40 queued: 40 of the flood's were answered while it ran without the device
        // lane; with it, those running when it came and the few answered while its statements waited for the database
        // (PGlite's one connection, which the flood's statements share).
        assert.ok(during <= 10, counts);
        assert.ok(!sent.includes(503), 'the hashing gate was never full');
      } finally {
        await deployed.close();
      }
    });
  });
}
