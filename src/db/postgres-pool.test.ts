import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createPostgresPool } from './postgres-pool.js';

// PostgreSQL only: PGlite is one in-process connection with no pool.
const BASE_URL = process.env.TEST_DATABASE_URL;

describe('the PostgreSQL pool prepares statements', { skip: BASE_URL ? false : 'TEST_DATABASE_URL is not set' }, () => {
  const table = `prep_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BASE_URL });
  const pool = createPostgresPool({ connectionString: BASE_URL!, max: 1, statementTimeoutMs: 0, idleInTransactionTimeoutMs: 0, queryTimeoutMs: 0, connectTimeoutMs: 3_000 });
  after(async () => {
    await admin.query(`DROP TABLE IF EXISTS ${table}`);
    await admin.end();
    await pool.end();
  });

  /** One borrowed connection (the pool holds one), as Kysely borrows it. */
  async function onConnection<T>(work: (query: (text: string, values?: unknown[]) => Promise<pg.QueryResult>) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      return await work((text, values = []) => client.query(text, values) as unknown as Promise<pg.QueryResult>);
    } finally {
      client.release();
    }
  }

  const preparedTexts = (query: (text: string) => Promise<pg.QueryResult>) =>
    query('SELECT statement FROM pg_prepared_statements WHERE NOT from_sql').then((r) => r.rows.map((row: { statement: string }) => row.statement));

  test('a text runs as one named statement on its connection, however often it runs', async () => {
    await admin.connect();
    await admin.query(`CREATE TABLE ${table} (a int)`);
    const texts = await onConnection(async (query) => {
      for (let i = 0; i < 3; i++) assert.equal((await query('SELECT $1::int + 1 AS n', [i])).rows[0].n, i + 1);
      return preparedTexts(query);
    });
    assert.equal(texts.filter((text) => text === 'SELECT $1::int + 1 AS n').length, 1);
  });

  test('a table changed under a prepared statement fails that query once; the connection is replaced, not reused', async () => {
    await onConnection((query) => query(`SELECT * FROM ${table}`));
    await admin.query(`ALTER TABLE ${table} ADD COLUMN b int`);
    await assert.rejects(onConnection((query) => query(`SELECT * FROM ${table}`)), (err: { code?: string }) => err.code === '0A000');
    const columns = await onConnection((query) => query(`SELECT * FROM ${table}`));
    assert.deepEqual(columns.fields.map((field) => field.name), ['a', 'b']);
  });

  test('a connection prepares at most 256 texts; past that, statements still run, unnamed', async () => {
    const texts = await onConnection(async (query) => {
      for (let i = 0; i < 300; i++) assert.equal((await query(`SELECT ${i} AS n`)).rows[0].n, i);
      return preparedTexts(query);
    });
    assert.ok(texts.length <= 256, `${texts.length} prepared statements`);
    assert.ok(texts.includes('SELECT 0 AS n') && !texts.includes('SELECT 299 AS n'));
  });
});
