import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type CompiledQuery, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql, type QueryResult } from 'kysely';
import type { Db } from './database.js';
import { executeAsOne, executeGuarded, fragmentKind, insertRowFragment, StatementRefused } from './one-statement.js';
import type { Database } from './types.js';

/** A database that compiles as PostgreSQL and whose statements the test answers (rows of its choosing), recording them. */
function stubDb() {
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  const sent: { sql: string; parameters: readonly unknown[]; answer: (rows?: unknown[]) => void }[] = [];
  db.executeQuery = (<R>(query: CompiledQuery<R>) =>
    new Promise<QueryResult<R>>((resolve) => {
      sent.push({ sql: query.sql, parameters: query.parameters, answer: (rows = []) => resolve({ rows: rows as R[] }) });
    })) as Db['executeQuery'];
  return { db, sent };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A charge, then a second row named after what the first part RETURNs (each copy reads its own first part). */
const first = fragmentKind('rows', (qc, v: { reference: string; note: string }) =>
  qc.insertInto('acquirer_charges').values({ reference: v.reference, method: 'PIX', amount_cents: 1, outcome: v.note, created_at: sql`now()` }).returning('reference'),
);
const second = fragmentKind('rows', (qc, v: { amount: number }, at) =>
  qc
    .insertInto('acquirer_charges')
    .columns(['reference', 'method', 'amount_cents', 'outcome', 'created_at'])
    .expression((eb) =>
      eb.selectFrom(sql.table(at.first).as('f')).select([sql<string>`f.reference || '-2'`.as('reference'), sql<string>`'PIX'`.as('method'), sql<number>`${v.amount}`.as('amount_cents'), sql<string>`'{}'`.as('outcome'), sql<Date>`now()`.as('created_at')]),
    ),
);
const pair = (reference: string, amount: number) => [first({ reference, note: `{"n":"${reference}"}` }), second({ amount })];

test('copies built by Kysely: each copy its own CTE names, read through the builder, and its parameters filled from its own values', async () => {
  const { db, sent } = stubDb();
  const runs = [1, 2, 3, 4].map((n) => executeAsOne(db, pair(`r${n}`, n)));
  assert.equal(sent.length, 2, 'two sent alone');
  assert.equal(
    sent[0]!.sql,
    'with "w0" as (insert into "acquirer_charges" ("reference", "method", "amount_cents", "outcome", "created_at") values ($1, $2, $3, $4, now()) returning "reference") ' +
      'insert into "acquirer_charges" ("reference", "method", "amount_cents", "outcome", "created_at") select f.reference || \'-2\' as "reference", \'PIX\' as "method", $5 as "amount_cents", \'{}\' as "outcome", now() as "created_at" from "w0" as "f"',
  );
  assert.deepEqual(sent[0]!.parameters, ['r1', 'PIX', 1, '{"n":"r1"}', 1]);
  sent[0]!.answer();
  await tick();
  const batch = sent[2]!;
  for (const copy of [0, 1]) {
    assert.ok(batch.sql.includes(`"c${copy}w0" as (insert into "acquirer_charges"`), `copy ${copy}'s first part`);
    assert.ok(batch.sql.includes(`from "c${copy}w0" as "f"`), `copy ${copy}'s second part reads its own first part`);
  }
  assert.ok(batch.sql.endsWith('select true as "g0"'));
  assert.deepEqual(batch.parameters, ['r3', 'PIX', 1, '{"n":"r3"}', 3, 'r4', 'PIX', 1, '{"n":"r4"}', 4]);
  sent[1]!.answer();
  batch.answer();
  await Promise.all(runs);
});

test('a string literal holding $1 or "w0" is sent unchanged in every copy', async () => {
  const { db, sent } = stubDb();
  const literal = fragmentKind('rows', (qc, v: { reference: string }) =>
    qc.insertInto('acquirer_charges').values({ reference: v.reference, method: sql`'$1 "w0" $2'`, amount_cents: 1, outcome: '{}', created_at: sql`now()` }),
  );
  const runs = [1, 2, 3, 4].map((n) => executeAsOne(db, [literal({ reference: `r${n}` }), literal({ reference: `s${n}` })]));
  sent[0]!.answer();
  await tick();
  const copies = sent[2]!.sql;
  assert.equal(copies.split(`'$1 "w0" $2'`).length - 1, 4, 'two parts in each of two copies');
  assert.ok(!copies.includes("'$3") && !copies.includes('"c0w0" $2'));
  for (const s of sent) s.answer();
  await Promise.all(runs);
});

test('an UPDATE of a row other runs may update too is refused outside a transaction, at its first statement', async () => {
  const { db, sent } = stubDb();
  const counter = fragmentKind('shared row', (qc, v: { id: string }) => qc.updateTable('webhooks').set({ failing_since: null }).where('id', '=', v.id));
  await assert.rejects(executeAsOne(db, [insertRowFragment('events', { id: 'e', company_id: 'c', type: 't', transaction_id: null, body: '{}', created_at: new Date() }), counter({ id: 'w' })]), StatementRefused);
  assert.equal(sent.length, 0, 'nothing sent');
});

test('a guard leads its statement, and every part after it must read it', async () => {
  const { db } = stubDb();
  const guard = fragmentKind('guard', (qc, v: { id: string }) => qc.updateTable('payment_intents').set({ status: 'CONFIRMED' }).where('id', '=', v.id).returning('id'));
  const blind = fragmentKind('rows', (qc, v: { reference: string }) => qc.insertInto('acquirer_charges').values({ reference: v.reference, method: 'PIX', amount_cents: 1, outcome: '{}', created_at: new Date() }));
  await assert.rejects(executeGuarded(db, [guard({ id: 'pi' }), blind({ reference: 'r' })]), StatementRefused);
  await assert.rejects(executeGuarded(db, [blind({ reference: 'r' })]), StatementRefused);
  await assert.rejects(executeAsOne(db, [blind({ reference: 'r' }), guard({ id: 'pi' })]), StatementRefused);
});

test('a guarded statement answers, for each run of a batch, whether its guard matched', async () => {
  const { db, sent } = stubDb();
  const guard = fragmentKind('guard', (qc, v: { id: string }) => qc.updateTable('payment_intents').set({ status: 'CONFIRMED' }).where('id', '=', v.id).returning('id'));
  const row = (n: number) => insertRowFragment('events', { id: `e${n}`, company_id: 'c', type: 't', transaction_id: null, body: '{}', created_at: new Date(0) });
  const runs = [1, 2, 3, 4].map((n) => executeGuarded(db, [guard({ id: `pi${n}` }), row(n)]));
  assert.match(sent[0]!.sql, /^with "w0" as \(update "payment_intents" .* returning "id"\), "w1" as \(insert into "events" \("id", .*\) select \$\d+ as "id", .* from "w0" as "guard"\) select exists \(select 1 from "w0"\) as "g0"$/);
  sent[0]!.answer([{ g0: true }]);
  sent[1]!.answer([{ g0: false }]);
  await tick();
  assert.match(sent[2]!.sql, /select exists \(select 1 from "c0w0"\) as "g0", exists \(select 1 from "c1w0"\) as "g1"$/);
  sent[2]!.answer([{ g0: false, g1: true }]);
  assert.deepEqual(await Promise.all(runs), [true, false, false, true]);
});
