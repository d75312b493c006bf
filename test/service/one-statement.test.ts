/**
 * db/one-statement.ts on a real database: a statement of fragments is built
 * and compiled once per shape, then sent with its fragments' values alone,
 * each parameter filled from the value it was built from. Concurrent
 * statements of one shape outside a transaction share one statement
 * (statement-batches.ts), and each still gets the answer it would have had
 * alone, a guarded one whether its own guard matched.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { executeAsOne, executeGuarded, fragmentKind, insertRowFragment, type InsertFragment } from '../../src/db/one-statement.js';
import { engines, openTestDatabase, type TestDatabase } from '../helpers/db.js';

for (const engine of engines()) {
  describe(`one statement of fragments (${engine})`, () => {
    let db: TestDatabase;
    before(async () => {
      db = await openTestDatabase(engine);
    });
    after(() => db.close());

    let builds = 0;
    /** An INSERT into acquirer_charges (no foreign keys), counting its builds. */
    const chargeKind = fragmentKind('rows', (qc, row: { reference: string; method: string; amount_cents: number; outcome: string; created_at: Date; description?: string }) => {
      builds++;
      const { description, ...columns } = row;
      // `description` present: a second shape of the same kind, which keeps it in the outcome.
      return qc.insertInto('acquirer_charges').values(description === undefined ? columns : { ...columns, outcome: description });
    });
    const charge = (reference: string, description?: string): InsertFragment =>
      chargeKind({ reference, method: 'PIX', amount_cents: 100, outcome: JSON.stringify({ reference }), created_at: new Date(), description });
    const pairFirst = fragmentKind('rows', (qc, row: { reference: string; method: string; amount_cents: number; outcome: string; created_at: Date }) =>
      qc.insertInto('acquirer_charges').values(row).returning('reference'),
    );
    const pairSecond = fragmentKind('rows', (qc, v: { created_at: Date }, at) =>
      qc.insertInto('acquirer_charges').columns(['reference', 'method', 'amount_cents', 'outcome', 'created_at'])
        .expression((eb) => eb.selectFrom(sql.table(at.first).as('f')).select([
          sql<string>`f.reference || '-second'`.as('reference'), sql<string>`'PIX'`.as('method'), sql<number>`1`.as('amount_cents'), sql<string>`'{}'`.as('outcome'), sql<Date>`${v.created_at}`.as('created_at'),
        ])),
    );
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

    test('each parameter is filled from the value it was built from; a value left undefined is another shape', async () => {
      builds = 0;
      await executeAsOne(db.db, [charge('os-w1'), charge('os-w2', '{"d":"first"}')]);
      await executeAsOne(db.db, [charge('os-w3'), charge('os-w4', '{"d":"second"}')]);
      assert.equal(builds, 2, 'one shape, built once');
      const outcomes = await db.db.selectFrom('acquirer_charges').select(['reference', 'outcome']).where('reference', 'in', ['os-w1', 'os-w2', 'os-w3', 'os-w4']).orderBy('reference').execute();
      assert.deepEqual(outcomes.map((o) => [o.reference, o.outcome]), [['os-w1', { reference: 'os-w1' }], ['os-w2', { d: 'first' }], ['os-w3', { reference: 'os-w3' }], ['os-w4', { d: 'second' }]]);
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
        return [pairFirst(row), pairSecond({ created_at: row.created_at })];
      };
      const references = Array.from({ length: 8 }, (_, i) => `os-pair-${i}`);
      await Promise.all(references.map((r) => executeAsOne(db.db, pair(r))));
      const xmins = await writers(references.flatMap((r) => [r, `${r}-second`]));
      assert.equal(xmins.size, 16);
      for (const r of references) assert.equal(xmins.get(`${r}-second`), xmins.get(r), `${r}'s second row in its first row's statement`);
      assert.ok(new Set(xmins.values()).size < 8);
    });

    test('a string literal holding $1 or "w0" is stored as written, alone and in shared statements', async () => {
      const literal = fragmentKind('rows', (qc, v: { reference: string; at: Date }) =>
        qc.insertInto('acquirer_charges').values({ reference: v.reference, method: sql`'$1 "w0"'`, amount_cents: 1, outcome: sql`'{"q":"$2 \\"w1\\""}'`, created_at: v.at }),
      );
      const references = Array.from({ length: 8 }, (_, i) => `os-lit-${i}`);
      await Promise.all(references.map((r) => executeAsOne(db.db, [literal({ reference: r, at: new Date() }), literal({ reference: `${r}-b`, at: new Date() })])));
      const rows = await db.db.selectFrom('acquirer_charges').select(['method', 'outcome']).where('reference', 'like', 'os-lit-%').execute();
      assert.equal(rows.length, 16);
      for (const row of rows) assert.deepEqual([row.method, row.outcome], ['$1 "w0"', { q: '$2 "w1"' }]);
      assert.ok(new Set((await writers(references)).values()).size < 8, 'some statements were shared');
    });

    test('a guarded statement writes only when its guard matched, and says so to each run of a shared statement', async () => {
      const guard = fragmentKind('guard', (qc, v: { reference: string }) =>
        qc.updateTable('acquirer_charges').set({ reversed_at: sql`now()` }).where('reference', '=', v.reference).where('reversed_at', 'is', null).returning('reference'),
      );
      const follower = fragmentKind('rows', (qc, v: { reference: string }, at) =>
        qc.insertInto('acquirer_charges').columns(['reference', 'method', 'amount_cents', 'outcome', 'created_at'])
          .expression((eb) => eb.selectFrom(sql.table(at.first).as('g')).select([sql<string>`g.reference || '-after'`.as('reference'), sql<string>`'PIX'`.as('method'), sql<number>`length(${v.reference}::text)`.as('amount_cents'), sql<string>`'{}'`.as('outcome'), sql<Date>`now()`.as('created_at')])),
        { readsGuard: true },
      );
      const references = Array.from({ length: 8 }, (_, i) => `os-guard-${i}`);
      // The odd ones have no row to guard: their statements must write nothing.
      for (const r of references.filter((_, i) => i % 2 === 0)) await executeAsOne(db.db, [charge(r)]);
      const matched = await Promise.all(references.map((r) => executeGuarded(db.db, [guard({ reference: r }), follower({ reference: r }), insertRowFragment('acquirer_charges', { reference: `${r}-row`, method: 'PIX', amount_cents: 1, outcome: '{}', created_at: new Date() })])));
      assert.deepEqual(matched, references.map((_, i) => i % 2 === 0));
      const written = await writers(references.flatMap((r) => [`${r}-after`, `${r}-row`]));
      assert.deepEqual([...written.keys()].sort(), references.filter((_, i) => i % 2 === 0).flatMap((r) => [`${r}-after`, `${r}-row`]).sort());
      assert.ok(new Set(written.values()).size < 4, `the matched runs shared statements with the others: ${new Set(written.values()).size}`);
      assert.equal(await executeGuarded(db.db, [guard({ reference: 'os-guard-0' }), follower({ reference: 'os-guard-0' })]), false, 'a guard matches once');
    });

    test('an UPDATE of a row other runs may update too runs inside a transaction', async () => {
      const shared = fragmentKind('shared row', (qc, v: { reference: string }) => qc.updateTable('acquirer_charges').set({ amount_cents: sql`amount_cents + 1` }).where('reference', '=', v.reference));
      await executeAsOne(db.db, [charge('os-shared')]);
      await db.db.transaction().execute((trx) => executeAsOne(trx, [charge('os-shared-2'), shared({ reference: 'os-shared' })]));
      assert.equal((await db.db.selectFrom('acquirer_charges').select('amount_cents').where('reference', '=', 'os-shared').executeTakeFirstOrThrow()).amount_cents, 101);
    });
  });
}
