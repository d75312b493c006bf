/**
 * The seller's profile cache (companies/seller-profiles.ts) under concurrent
 * confirmations: confirmations that miss it together share one read, and a
 * change made through this process while a read is in flight is not hidden
 * by that read's older answer.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Db } from '../../src/db/database.js';
import { cachedSellerProfile, forgetSellerProfile } from '../../src/modules/companies/seller-profiles.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/db.js';
import { cnpj } from '../helpers/fixtures.js';
import { settled } from '../helpers/outcome.js';

/** A query builder whose answer is handed over only once `hold` settles; `answered` is called when the database has answered. */
function held<B extends object>(builder: B, hold: Promise<void>, answered: () => void): B {
  return new Proxy(builder, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (property === 'executeTakeFirstOrThrow') return (result as Promise<unknown>).then(async (row) => (answered(), await hold, row));
        return typeof result === 'object' && result !== null && 'compile' in result ? held(result, hold, answered) : result;
      };
    },
  });
}

/**
 * `db` with its reads of the companies table counted and, given `hold`,
 * handed over only once it settles (`answered` settles when the database has answered).
 */
function counting(db: Db, hold?: Promise<void>): { db: Db; reads(): number; answered: Promise<void> } {
  let reads = 0;
  let onAnswer!: () => void;
  const answered = new Promise<void>((resolve) => (onAnswer = resolve));
  const proxy = new Proxy(db, {
    get(target, property) {
      if (property === 'selectFrom') {
        return (table: string) => {
          if (table === 'companies') reads++;
          const builder = target.selectFrom(table as 'companies');
          return hold ? held(builder, hold, onAnswer) : builder;
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: proxy, reads: () => reads, answered };
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
      let release!: () => void;
      const { db, reads, answered } = counting(t.db.db, new Promise<void>((resolve) => (release = resolve)));
      const inFlight = cachedSellerProfile(db, companyId);
      // The read has its answer (the old name) but is not done when, as setFees does, the change commits and the cache forgets.
      await answered;
      await t.db.db.updateTable('companies').set({ name: 'Nome Novo Ltda' }).where('id', '=', companyId).execute();
      forgetSellerProfile(companyId);
      release();
      assert.equal((await inFlight).name, `Loja ${engine} ${n} Ltda`, 'the read in flight answers what it read');
      assert.equal((await cachedSellerProfile(db, companyId)).name, 'Nome Novo Ltda', 'the next one reads again');
      assert.equal(reads(), 2);
    });
  });
}
