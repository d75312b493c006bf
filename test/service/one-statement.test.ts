/**
 * db/one-statement.ts on a real database: a statement of shaped fragments is
 * built and compiled once per shape, then sent with its fragments' values
 * alone; a fragment whose values are not its compiled parameters fails its
 * first statement before anything is sent.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { executeAsOne, shapedRow, type InsertFragment } from '../../src/db/one-statement.js';
import { engines, openTestDatabase, type TestDatabase } from '../helpers/db.js';

for (const engine of engines()) {
  describe(`one statement of shaped fragments (${engine})`, () => {
    let db: TestDatabase;
    before(async () => {
      db = await openTestDatabase(engine);
    });
    after(() => db.close());

    let builds = 0;
    /** A shaped INSERT into acquirer_charges (no foreign keys), counting its builds. */
    const charge = (reference: string, values?: unknown[]): InsertFragment => {
      const row = { reference, method: 'PIX', amount_cents: 100, outcome: JSON.stringify({ reference }), created_at: new Date() };
      const shaped = shapedRow(`acquirer_charges (test on ${engine})`, row, (qc) => {
        builds++;
        return qc.insertInto('acquirer_charges').values(row);
      });
      return values ? { ...shaped, shape: `${shaped.shape} listed wrong`, values } : shaped;
    };
    const stored = async (...references: string[]) =>
      (await db.db.selectFrom('acquirer_charges').select('reference').where('reference', 'in', references).orderBy('reference').execute()).map((r) => r.reference);

    test('the first statement of a shape builds its fragments; the next ones only send their values', async () => {
      builds = 0;
      await executeAsOne(db.db, [charge('os-a1'), charge('os-a2')]);
      assert.equal(builds, 2);
      await executeAsOne(db.db, [charge('os-b1'), charge('os-b2')]);
      await executeAsOne(db.db, [charge('os-c1'), charge('os-c2')]);
      assert.equal(builds, 2, 'built once per shape');
      assert.deepEqual(await stored('os-a1', 'os-a2', 'os-b1', 'os-b2', 'os-c1', 'os-c2'), ['os-a1', 'os-a2', 'os-b1', 'os-b2', 'os-c1', 'os-c2']);
    });

    test('a fragment whose values disagree with its builder fails its first statement, which writes nothing', async () => {
      const wrong = charge('os-w2', ['os-w2', 'PIX', 100]); // two parameters short
      await assert.rejects(executeAsOne(db.db, [charge('os-w1'), wrong]), /are not the parameters they compile to/);
      assert.deepEqual(await stored('os-w1', 'os-w2'), []);
    });

    test('a cached statement is still one transaction: a violation in any part writes nothing', async () => {
      await executeAsOne(db.db, [charge('os-d1'), charge('os-d2')]);
      await assert.rejects(executeAsOne(db.db, [charge('os-d3'), charge('os-d1')]), (err: { code?: string }) => err.code === '23505');
      assert.deepEqual(await stored('os-d1', 'os-d2', 'os-d3'), ['os-d1', 'os-d2']);
    });
  });
}
