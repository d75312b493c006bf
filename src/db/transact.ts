/**
 * A database transaction whose work answers `T | DomainError`. Returning an
 * error commits what the work wrote before deciding (a state it found and
 * persisted stays persisted); `rollback(error)` undoes everything and still
 * hands the error back as a value.
 */
import type { Transaction } from 'kysely';
import type { DomainError, Outcome } from '../lib/domain-error.js';
import type { Db } from './database.js';
import type { Database } from './types.js';

class Rollback extends Error {
  constructor(readonly error: DomainError) {
    super(error.message.en);
  }
}

/** Aborts the surrounding `transact` work: nothing it wrote is kept, and `error` is its outcome. */
export function rollback(error: DomainError): never {
  throw new Rollback(error);
}

/** The error a rollback carried, when `err` is one that escaped a plain `db.transaction()`. */
export function rolledBackError(err: unknown): DomainError | undefined {
  return err instanceof Rollback ? err.error : undefined;
}

export async function transact<T>(db: Db, work: (trx: Transaction<Database>) => Promise<Outcome<T>>): Promise<Outcome<T>> {
  try {
    return await db.transaction().execute(work);
  } catch (err) {
    if (err instanceof Rollback) return err.error;
    throw err;
  }
}
