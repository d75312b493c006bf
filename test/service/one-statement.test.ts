/**
 * db/one-statement.ts on a real database: a statement of shaped fragments is
 * built and compiled once per shape, then sent with its fragments' values
 * alone; a fragment whose values are not its compiled parameters fails its
 * first statement before anything is sent. Concurrent statements of one shape
 * outside a transaction share one statement (statement-batches.ts), and each
 * still gets the answer it would have had alone.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { executeAsOne, FIRST_PART, shapedRow, type InsertFragment } from '../../src/db/one-statement.js';
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
    /** The transaction ids (xmin) of the stored charges, by reference. */
    const writers = async (references: string[]) =>
      new Map((await sql<{ reference: string; xmin: string }>`SELECT reference, xmin::text AS xmin FROM acquirer_charges WHERE reference = ANY(${references})`.execute(db.db)).rows.map((r) => [r.reference, r.xmin]));

    test('concurrent statements of one shape share statements: fewer transactions than sales, every row written', async () => {
      const references = Array.from({ length: 10 }, (_, i) => `os-batch-${i}`);
      await Promise.all(references.map((r) => executeAsOne(db.db, [charge(r)])));
      const xmins = await writers(references);
      assert.equal(xmins.size, 10);
      assert.ok(new Set(xmins.values()).size < 10, `10 sales in ${new Set(xmins.values()).size} transactions`);
    });

    test('a sale of a shared statement that fails gets its own error; the others of its statement are written', async () => {
      await executeAsOne(db.db, [charge('os-taken')]);
      const references = ['os-f0', 'os-f1', 'os-f2', 'os-taken', 'os-f4', 'os-f5', 'os-f5', 'os-f7'];
      const outcomes = await Promise.allSettled(references.map((r) => executeAsOne(db.db, [charge(r)])));
      const failed = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [[references[i], (o.reason as { code?: string }).code]] : []));
      assert.deepEqual(failed, [['os-taken', '23505'], ['os-f5', '23505']], 'the taken reference, and one of the two sales of os-f5');
      assert.deepEqual([...(await writers(references)).keys()].sort(), ['os-f0', 'os-f1', 'os-f2', 'os-f4', 'os-f5', 'os-f7', 'os-taken']);
    });

    test('in a shared statement each sale reads the rows of its own first part', async () => {
      /** Two charges: `reference`, then a second one named after what the first part RETURNs. */
      const pair = (reference: string): InsertFragment[] => {
        const row = { reference, method: 'PIX', amount_cents: 100, outcome: '{}', created_at: new Date() };
        return [
          shapedRow(`acquirer_charges pair first (${engine})`, row, (qc) => qc.insertInto('acquirer_charges').values(row).returning('reference')),
          shapedRow(`acquirer_charges pair second (${engine})`, { created_at: row.created_at }, (qc) =>
            qc.insertInto('acquirer_charges').columns(['reference', 'method', 'amount_cents', 'outcome', 'created_at'])
              .expression((eb) => eb.selectFrom(sql.table(FIRST_PART).as('f')).select([
                sql<string>`f.reference || '-second'`.as('reference'), sql<string>`'PIX'`.as('method'), sql<number>`1`.as('amount_cents'), sql<string>`'{}'`.as('outcome'), sql<Date>`${row.created_at}`.as('created_at'),
              ]))),
        ];
      };
      const references = Array.from({ length: 8 }, (_, i) => `os-pair-${i}`);
      await Promise.all(references.map((r) => executeAsOne(db.db, pair(r))));
      const xmins = await writers(references.flatMap((r) => [r, `${r}-second`]));
      assert.equal(xmins.size, 16);
      for (const r of references) assert.equal(xmins.get(`${r}-second`), xmins.get(r), `${r}'s second row in its first row's statement`);
      assert.ok(new Set(xmins.values()).size < 8);
    });
  });
}
