import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery } from 'kysely';
import type { Db } from './database.js';
import { executeBatched, MAX_WAIT_MS, type Copies } from './statement-batches.js';

/** A database stub whose statements the test answers one by one. */
function stubDb() {
  const sent: { text: string; values: readonly unknown[]; answer: (err?: unknown) => void }[] = [];
  const db = {
    executeQuery: (query: CompiledQuery) =>
      new Promise((resolve, reject) => {
        sent.push({ text: query.sql, values: query.parameters, answer: (err) => (err === undefined ? resolve({ rows: [] }) : reject(err)) });
      }),
  } as unknown as Db;
  return { db, sent };
}

const TEXT = 'insert into "c" ("z") values ($1)';
/** A statement whose n copies are named by their count (one-statement.test.ts checks the copies themselves). */
const copiesText = (n: number) => (n === 1 ? TEXT : `${n} copies of ${TEXT}`);
const STATEMENT: Copies<number, boolean> = { statement: (runs) => CompiledQuery.raw(copiesText(runs.length), [...runs]), answer: () => true };
const execute = (db: Db, value: number) => executeBatched(db, STATEMENT, value);
const settle = (promises: Promise<unknown>[]) => Promise.allSettled(promises);
const tick = () => new Promise((resolve) => setImmediate(resolve));
/** Keeps MAX_WAIT_MS from sending a waiting run alone while the test steps through (a loaded machine can take 100 ms between two ticks). */
const holdWaits = (t: TestContext) => t.mock.timers.enable({ apis: ['setTimeout'] });

test('runs that arrive while two statements of their text are in flight wait, then go together in one statement', async (t) => {
  holdWaits(t);
  const { db, sent } = stubDb();
  const runs = [1, 2, 3, 4, 5, 6, 7].map((v) => execute(db, v));
  assert.equal(sent.length, 2, 'the first two are sent alone at once');
  assert.deepEqual(sent.map((s) => s.values), [[1], [2]]);
  sent[0]!.answer();
  await tick();
  assert.equal(sent.length, 3);
  assert.equal(sent[2]!.text, copiesText(4), 'four waiting runs in one statement (a power of two)');
  assert.deepEqual(sent[2]!.values, [3, 4, 5, 6]);
  sent[1]!.answer();
  await tick();
  assert.deepEqual([sent[3]!.text, sent[3]!.values], [TEXT, [7]], 'one run waiting goes alone');
  sent[2]!.answer();
  sent[3]!.answer();
  assert.deepEqual((await settle(runs)).map((r) => r.status), Array(7).fill('fulfilled'));
  assert.equal(sent.length, 4);
});

/** Three runs: two sent alone (answered at once) and the batch of the two that waited, whose fate the test decides. */
async function batchOfTwo(db: Db, sent: ReturnType<typeof stubDb>['sent']) {
  const runs = [1, 2, 3, 4].map((v) => execute(db, v));
  sent[0]!.answer();
  sent[1]!.answer();
  await tick();
  assert.equal(sent[2]!.text, copiesText(2));
  return runs;
}

test('a batch PostgreSQL refuses with an ERROR is sent again run by run, each run getting its own answer', async (t) => {
  holdWaits(t);
  const { db, sent } = stubDb();
  const runs = await batchOfTwo(db, sent);
  const violation = Object.assign(new Error('duplicate key value violates unique constraint "c_pkey"'), { code: '23505', severity: 'ERROR', constraint: 'c_pkey' });
  sent[2]!.answer(violation);
  await tick();
  assert.deepEqual(sent.slice(3).map((s) => [s.text, s.values]), [[TEXT, [3]], [TEXT, [4]]]);
  sent[3]!.answer();
  sent[4]!.answer(violation);
  const outcomes = await settle(runs);
  assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
  assert.equal((outcomes[3] as PromiseRejectedResult).reason, violation);
});

test('a batch whose outcome is unknown (the connection lost) gives every run that error and is not sent again', async (t) => {
  holdWaits(t);
  const { db, sent } = stubDb();
  const runs = await batchOfTwo(db, sent);
  const lost = new Error('Connection terminated unexpectedly');
  sent[2]!.answer(lost);
  const outcomes = await settle(runs);
  assert.deepEqual(outcomes.slice(2).map((o) => (o as PromiseRejectedResult).reason), [lost, lost]);
  assert.equal(sent.length, 3, 'nothing sent again: the batch may have committed');
  const shutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' });
  const other = stubDb();
  const again = await batchOfTwo(other.db, other.sent);
  other.sent[2]!.answer(shutdown);
  assert.deepEqual((await settle(again)).slice(2).map((o) => (o as PromiseRejectedResult).reason), [shutdown, shutdown]);
  assert.equal(other.sent.length, 3);
});

test('runs waiting behind statements that do not answer are sent after MAX_WAIT_MS, and a full batch never waits', async () => {
  const { db, sent } = stubDb();
  const runs = Array.from({ length: 11 }, (_, v) => execute(db, v));
  assert.deepEqual(sent.map((s) => s.values), [[0], [1], [2, 3, 4, 5, 6, 7, 8, 9]], 'two alone, then the first 8 waiting at once');
  await new Promise((resolve) => setTimeout(resolve, MAX_WAIT_MS + 50));
  assert.deepEqual(sent.slice(3).map((s) => s.values), [[10]], 'the run left waiting is sent though nothing answered');
  for (const s of sent) s.answer();
  assert.deepEqual((await settle(runs)).map((r) => r.status), Array(11).fill('fulfilled'));
});
