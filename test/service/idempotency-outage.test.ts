/**
 * An Idempotency-Key whose request was cut by a database outage is released
 * when the outage ends (issue 28): the request's release fails while the
 * database is unreachable, and the next claim once it answers (a retry with
 * the same key) releases it and takes the key at once, instead of 409
 * IDEMPOTENCY_KEY_IN_USE until the 60 s lease runs out. The outage is a
 * database handle whose deletes fail as a refused connection does.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { engines } from '../helpers/db.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { IdempotencyService, type Claim } from '../../src/modules/idempotency/index.js';
import { statusOf } from '../../src/http/errors.js';
import { storedViewForm } from '../../src/modules/transactions/index.js';
import { isDomainError, type Outcome } from '../../src/lib/domain-error.js';
import type { Db } from '../../src/db/database.js';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

/** The test app's database, whose DELETEs fail as an unreachable server's while `down`. */
function flaky(db: Db, state: { down: boolean }): Db {
  return new Proxy(db, {
    get(target, prop) {
      if (state.down && prop === 'deleteFrom') return () => ({ where: () => { throw refused(); } });
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const codeOf = (claim: Outcome<Claim>) => (isDomainError(claim) ? claim.code : claim.kind);

for (const engine of engines()) {
  describe(`Idempotency-Key cut by a database outage on ${engine}`, () => {
    let t: TestApp;
    const state = { down: false };
    let service: IdempotencyService;
    before(async () => {
      t = await startTestApp(engine);
      service = new IdempotencyService({ db: flaky(t.db.db, state), clock: t.clock, sealer: t.deps.sealer, statusOf, storedForm: storedViewForm });
    });
    after(() => t.close());

    const claim = (key: string, fingerprint = 'f1') => service.claim(t.companyId, key, fingerprint, 201);

    test('the retry after the outage takes the key at once, well inside the lease', async () => {
      const first = await claim('cut-1');
      assert.equal(codeOf(first), 'new');
      state.down = true;
      await assert.rejects(() => (first as Extract<Claim, { kind: 'new' }>).scope.release(), /ECONNREFUSED/);
      // During the outage the key is still STARTED: a retry is told to wait.
      state.down = false;
      t.clock.advance(5_000);
      const retry = await claim('cut-1');
      assert.equal(codeOf(retry), 'new', 'released at the first claim after the outage, not 409 until the lease ends');
      const row = await t.db.db.selectFrom('idempotency_keys').select(['state', 'locked_until']).where('company_id', '=', t.companyId).where('key', '=', 'cut-1').executeTakeFirstOrThrow();
      assert.deepEqual([row.state, row.locked_until.getTime()], ['STARTED', t.clock.now().getTime() + 60_000], "the retry's own claim");
    });

    test("another key's claim after the outage releases it too; a key taken over since is never released", async () => {
      const cut = await claim('cut-2');
      const stale = await claim('cut-3');
      state.down = true;
      await assert.rejects(() => (cut as Extract<Claim, { kind: 'new' }>).scope.release());
      await assert.rejects(() => (stale as Extract<Claim, { kind: 'new' }>).scope.release());
      state.down = false;
      // cut-3's lease runs out and another request takes it over before anything is released.
      await t.db.db.updateTable('idempotency_keys').set({ locked_until: new Date(t.clock.now().getTime() + 120_000) }).where('key', '=', 'cut-3').execute();
      assert.equal(codeOf(await claim('other-key')), 'new');
      const left = await t.db.db.selectFrom('idempotency_keys').select('key').where('company_id', '=', t.companyId).where('key', 'in', ['cut-2', 'cut-3']).execute();
      assert.deepEqual(left.map((r) => r.key), ['cut-3'], 'cut-2 released by an unrelated claim; cut-3 kept: its lease is not the one the cut request held');
      assert.equal(codeOf(await claim('cut-3')), 'IDEMPOTENCY_KEY_IN_USE');
    });

    test('without an outage nothing changes: a key in use is 409 until released', async () => {
      const first = await claim('live-1');
      assert.equal(codeOf(await claim('live-1')), 'IDEMPOTENCY_KEY_IN_USE');
      await (first as Extract<Claim, { kind: 'new' }>).scope.release();
      assert.equal(codeOf(await claim('live-1')), 'new');
    });
  });
}
