/**
 * The PostgreSQL connection pool, hardened for a database that restarts, drops
 * connections or stalls silently:
 *  - every client gets an 'error' listener when it is created, so an error on a
 *    checked-out client (ECONNRESET, 57P01 admin shutdown) is handled instead of
 *    crashing the process (pg's pool listens only while a client is idle); the
 *    query in flight rejects and the request answers 503;
 *  - a client that saw such an error is destroyed on release, never reused;
 *  - server-side timeouts (statement_timeout, idle_in_transaction_session_timeout)
 *    are sent as connection parameters, so PostgreSQL itself releases the locks
 *    of a client that went silent mid-transaction;
 *  - a client-side query timeout and TCP keepalive turn a silently stalled
 *    network into an error within seconds.
 */
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { isDatabaseUnavailable } from './unavailable.js';

export interface PoolSettings {
  connectionString: string;
  /** Connections per process. */
  max: number;
  /** Server side: a statement running longer is canceled (0: no limit). */
  statementTimeoutMs: number;
  /** Server side: a session idle inside a transaction longer is terminated, its locks released (0: no limit). */
  idleInTransactionTimeoutMs: number;
  /** Client side: a query without an answer for this long is abandoned and its connection dropped (0: no limit). */
  queryTimeoutMs: number;
  /** Giving up on opening a connection. */
  connectTimeoutMs: number;
  types?: pg.CustomTypesConfig;
  /** Errors of pool clients, idle or checked out; they are logged, never thrown. */
  onError?: (err: Error) => void;
}

/** First TCP keepalive probe after this much silence: a peer gone without a FIN is noticed in seconds, not hours. */
const KEEPALIVE_INITIAL_DELAY_MS = 5_000;
const IDLE_CLIENT_TIMEOUT_MS = 30_000;

export function createPostgresPool(settings: PoolSettings): PostgresPool {
  const pool = new pg.Pool({
    connectionString: settings.connectionString,
    max: settings.max,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    idleTimeoutMillis: IDLE_CLIENT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_INITIAL_DELAY_MS,
    // pg leaves a parameter out of the startup message when it is undefined; 0 would mean "no limit" anyway.
    ...(settings.statementTimeoutMs > 0 ? { statement_timeout: settings.statementTimeoutMs } : {}),
    ...(settings.idleInTransactionTimeoutMs > 0 ? { idle_in_transaction_session_timeout: settings.idleInTransactionTimeoutMs } : {}),
    ...(settings.queryTimeoutMs > 0 ? { query_timeout: settings.queryTimeoutMs } : {}),
    ...(settings.types ? { types: settings.types } : {}),
  });
  const onError = (err: Error) => settings.onError?.(err);
  // Idle clients: pg's pool emits their errors here.
  pool.on('error', onError);
  // Checked-out clients: pg's pool removes its own listener while a client is lent out.
  pool.on('connect', (client) => client.on('error', onError));
  return {
    connect: async () => lend(await pool.connect()),
    end: () => pool.end(),
  };
}

/**
 * Statements run as named prepared statements, so PostgreSQL parses each text
 * once per connection and, after a few runs, reuses its plan: the payment
 * flow's one statement is a long chain of CTEs whose parse and plan cost as
 * much as a small transaction. A name only has to be unique on its
 * connection, so each connection names its texts s0, s1, … in the order it
 * first runs them. A connection prepares at most MAX_PREPARED_PER_CONNECTION
 * texts of at most MAX_PREPARED_TEXT characters; past that, statements run
 * unnamed, as pg does by default (texts that vary with their input, such as
 * IN lists, cannot fill a connection's memory).
 */
const MAX_PREPARED_PER_CONNECTION = 256;
/** Eight copies of the sale's statement in one (db/statement-batches.ts) are about 20,000 characters. */
const MAX_PREPARED_TEXT = 65_536;
/** Per connection: each prepared text and its statement name. */
const preparedNames = new WeakMap<pg.PoolClient, Map<string, string>>();

function asPrepared(client: pg.PoolClient, args: unknown[]): pg.QueryConfig | undefined {
  const [text, values] = args;
  if (typeof text !== 'string' || text.length > MAX_PREPARED_TEXT || (values !== undefined && !Array.isArray(values))) return undefined;
  let names = preparedNames.get(client);
  if (!names) preparedNames.set(client, (names = new Map()));
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_PREPARED_PER_CONNECTION) return undefined;
    name = `s${names.size}`;
    names.set(text, name);
  }
  return { name, text, values: values as unknown[] | undefined };
}

/** 0A000 "cached plan must not change result type": a table under a prepared statement changed shape (a migration while running). */
const isStalePlan = (err: unknown): boolean => (err as { code?: unknown })?.code === '0A000';

/**
 * The client as Kysely sees it. Kysely releases a client without saying
 * whether it failed; a client whose query failed because the connection is
 * gone or stalled (a timed-out query may still be running on the server, its
 * answer still to come) is destroyed on release instead of going back to the pool.
 */
function lend(client: pg.PoolClient): PostgresPoolClient {
  let broken: unknown;
  const query = ((...args: unknown[]) => {
    // A broken connection answers at once: a ROLLBACK after a timed-out query would otherwise wait out a second timeout.
    if (broken !== undefined) return Promise.reject(new Error(`Client has encountered a connection error and is not queryable: ${String((broken as Error).message ?? broken)}`, { cause: broken }));
    const prepared = asPrepared(client, args);
    const result = (client.query as (...a: unknown[]) => unknown)(...(prepared ? [prepared] : args));
    if (result instanceof Promise) {
      result.catch((err: unknown) => {
        // A schema change under a prepared statement: this connection's statements are stale, so it is not reused.
        if (isDatabaseUnavailable(err) || (prepared && isStalePlan(err))) broken ??= err;
      });
    }
    return result;
  }) as PostgresPoolClient['query'];
  return {
    query,
    release: () => client.release(broken === undefined ? undefined : true),
  };
}
