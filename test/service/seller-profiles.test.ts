/**
 * The seller's profile cache (companies/seller-profiles.ts) under concurrent
 * confirmations: confirmations that miss it together share one read, and a
 * change made through this process while a read is in flight is not hidden
 * by that read's older answer.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KyselyPlugin } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { cachedSellerProfile, forgetSellerProfile } from '../../src/modules/companies/seller-profiles.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/db.js';
import { cnpj } from '../helpers/fixtures.js';
import { settled } from '../helpers/outcome.js';

/** `db` (or a transaction) with its queries counted; `onAnswer` runs when the database has answered one, before the caller sees it. */
function counting(db: Db, onAnswer?: () => void): { db: Db; reads(): number } {
  let reads = 0;
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => (reads++, node),
    transformResult: async ({ result }) => (onAnswer?.(), result),
  };
  return { db: db.withPlugin(plugin), reads: () => reads };
}

for (const engine of engines()) {
  describe(`the seller's profile cache (${engine})`, () => {
    let t: TestApp;
    let n = 0;
    const newCompany = async () => settled(await t.services.companies.createCompany(`Loja ${engine} ${++n} Ltda`, cnpj(`5566778800${String(n).padStart(2, '0')}`))).id;

    before(async () => {
      t = await startTestApp(engine);
    });
    after(() => t.close());

    test('confirmations that miss the cache together share one read, and later ones are answered from the cache', async () => {
      const companyId = await newCompany();
      const { db, reads } = counting(t.db.db);
      const profiles = await Promise.all(Array.from({ length: 20 }, () => cachedSellerProfile(db, companyId)));
      assert.equal(reads(), 1);
      for (const profile of profiles) assert.deepEqual(profile, profiles[0]);
      assert.equal(profiles[0]!.name, `Loja ${engine} ${n} Ltda`);
      await cachedSellerProfile(db, companyId);
      assert.equal(reads(), 1, 'cached');
    });

    test('a confirmation inside a transaction reads in it, sharing no read with those outside it', async () => {
      const companyId = await newCompany();
      const { db, reads } = counting(t.db.db);
      let outside: Promise<unknown> | undefined;
      await t.db.db.transaction().execute(async (trx) => {
        const counted = counting(trx);
        const inside = cachedSellerProfile(counted.db, companyId);
        // Outside the transaction, at the same moment (PGlite runs it once the transaction ends).
        outside = cachedSellerProfile(db, companyId);
        assert.equal((await inside).name, `Loja ${engine} ${n} Ltda`);
        assert.equal(counted.reads(), 1, 'read in the transaction');
      });
      await outside;
      assert.equal(reads(), 1, 'the read outside was its own');
    });

    test('a change this process makes while a read is in flight is not hidden by that read', async () => {
      const companyId = await newCompany();
      // The first read has its answer (the old name) but is not done when, as setFees does, the change is made and the cache forgets.
      let first = true;
      const { db, reads } = counting(t.db.db, () => first && forgetSellerProfile(companyId));
      assert.equal((await cachedSellerProfile(db, companyId)).name, `Loja ${engine} ${n} Ltda`, 'the read in flight answers what it read');
      first = false;
      await t.db.db.updateTable('companies').set({ name: 'Nome Novo Ltda' }).where('id', '=', companyId).execute();
      assert.equal((await cachedSellerProfile(db, companyId)).name, 'Nome Novo Ltda', 'the next one reads again');
      assert.equal(reads(), 2);
    });
  });
}
