import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Kysely, PostgresDialect } from 'kysely';
import { migrate } from './database.js';
import type { Database } from './types.js';

/** A database whose every connection attempt fails with `err`. */
const failingWith = (err: Error) =>
  new Kysely<Database>({ dialect: new PostgresDialect({ pool: { connect: () => Promise.reject(err), end: async () => {} } }) });

test('a database shutting down during the migrations is thrown as it is, for the start to wait and retry', async () => {
  const shuttingDown = Object.assign(new Error('the database system is shutting down'), { code: '57P03' });
  await assert.rejects(migrate(failingWith(shuttingDown)), (err) => err === shuttingDown);
});

test('any other failure is a migration failure', async () => {
  const denied = Object.assign(new Error('permission denied for schema public'), { code: '42501' });
  await assert.rejects(migrate(failingWith(denied)), /^Error: migration .*failed: permission denied for schema public$/);
});
