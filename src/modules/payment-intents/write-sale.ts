/**
 * The one writer of a sale (sale.ts): its rows and events as the fragments
 * of ONE statement (db/one-statement.ts), executed alone (its own commit,
 * which concurrent sales share) or in the caller's database transaction. The
 * stages choose how the intent's row is written (`IntentPart`): inserted
 * new (a create-and-confirm), set under the intent's lock, or guarded by
 * the condition that stands in for the lock (record.ts); everything else a
 * sale writes is listed here once.
 */
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.js';
import { executeAsOne, executeGuarded, type StatementFragment } from '../../db/one-statement.js';
import type { Database } from '../../db/types.js';
import type { Outcome } from '../../lib/domain-error.js';
import type { ResponseRecorder, UnclaimedKey } from '../idempotency/index.js';
import { insertTransactionFragment, type TransactionService } from '../transactions/index.js';
import * as repo from './repo.js';
import { afterMove, withImageDrawn, type ConfirmationResult, type ConfirmationShape, type Sale } from './sale.js';

/** How the statement writes the intent's row, its first part (a guard's: record.ts). */
export interface IntentPart {
  fragment: StatementFragment;
}

/** The intent inserted as the sale leaves it (a create-and-confirm: nothing existed before the statement). */
export const insertedIntent = (sale: Sale): IntentPart => ({ fragment: repo.insertIntentFragment(sale.intent) });

/** The intent set as the sale leaves it, claim's columns included, by a caller holding its row locked. */
export const lockedIntent = (sale: Sale): IntentPart => ({ fragment: repo.confirmLockedFragment(sale.intent) });

/** The intent made CONFIRMED by a caller holding its row locked after its claim committed: the outcome's columns. */
export const claimedIntent = (sale: Sale): IntentPart => ({ fragment: repo.confirmFragment(sale.intent) });

/** What a sale writes, in one statement's order: the intent's row, the provider's record, the transaction, its event and deliveries. */
function saleFragments(sale: Sale, intent: IntentPart): StatementFragment[] {
  const fragments: StatementFragment[] = [intent.fragment];
  if (sale.providerRecord) fragments.push(sale.providerRecord);
  fragments.push(insertTransactionFragment(sale.transaction), ...sale.created);
  return fragments;
}

/**
 * A Pix or boleto sale in ONE statement of `ex` (the pool, or a transaction
 * holding the intent's lock), with, when given, the request's key and the
 * answer (`keyPart`: the key DONE with the response, in the same statement).
 * Answers the views with the Pix QR image, drawn while PostgreSQL writes.
 */
export async function writeSaleAtOnce(
  ex: Db,
  sale: Sale,
  intent: IntentPart,
  shape: ConfirmationShape,
  keyPart?: (response: Outcome<unknown>) => StatementFragment,
): Promise<ConfirmationResult> {
  return drawWhileWriting(executeAsOne(ex, atOnceFragments(sale, intent, shape, keyPart)), () => withImageDrawn(sale.views));
}

/**
 * As writeSaleAtOnce, the statement's first part a guard (db/one-statement.ts) that stands in for the
 * intent's lock (record.ts): undefined when it matched no row, and nothing was written.
 */
export async function writeSaleGuarded(
  ex: Db,
  sale: Sale,
  guard: IntentPart,
  shape: ConfirmationShape,
  keyPart?: (response: Outcome<unknown>) => StatementFragment,
): Promise<ConfirmationResult | undefined> {
  let matched = false;
  const statement = executeGuarded(ex, atOnceFragments(sale, guard, shape, keyPart)).then((m) => {
    matched = m;
  });
  const views = await drawWhileWriting(statement, () => withImageDrawn(sale.views));
  return matched ? views : undefined;
}

function atOnceFragments(sale: Sale, intent: IntentPart, shape: ConfirmationShape, keyPart?: (response: Outcome<unknown>) => StatementFragment): StatementFragment[] {
  const fragments = saleFragments(sale, intent);
  if (keyPart) fragments.push(keyPart(sale.views[shape]));
  return fragments;
}

/**
 * A sale in the caller's database transaction `trx`, which holds the
 * intent's row locked: the same statement, then a card's move (PAID with its
 * receivables, or FAILED, and its event: the transactions module's), and the
 * response stored by `recorder` in the same commit.
 */
export async function writeSaleIn(
  trx: Transaction<Database>,
  sale: Sale,
  intent: IntentPart,
  transactions: TransactionService,
  shape: ConfirmationShape,
  recorder: ResponseRecorder | undefined,
): Promise<ConfirmationResult> {
  await executeAsOne(trx, saleFragments(sale, intent));
  const out = sale.move ? afterMove(sale, await transactions.transition(trx, sale.transaction, sale.move, sale.at)) : withImageDrawn(sale.views);
  await recorder?.save(trx, out[shape]);
  return out;
}

/**
 * What is not a sale but is written at once too (an intent created without
 * confirming it, or FAILED at creation): the fragments and the key's row
 * DONE with `outcome`, as one statement; undefined when the key was taken.
 */
export async function writeAtOnce<T>(db: Db, fragments: StatementFragment[], outcome: Outcome<T>, key: UnclaimedKey | undefined): Promise<Outcome<T> | undefined> {
  return keyTakenAsUndefined(key, async () => {
    await executeAsOne(db, key ? [...fragments, key.insertDone(outcome)] : fragments);
    return outcome;
  });
}

/** `write()`'s answer; undefined when its statement failed because the request's key, or an intent created under it, exists. */
export async function keyTakenAsUndefined<T>(key: UnclaimedKey | undefined, write: () => Promise<T>): Promise<T | undefined> {
  try {
    return await write();
  } catch (err) {
    if (key && (key.isTaken(err) || repo.isCreateKeyTaken(err))) return undefined;
    throw err;
  }
}

/**
 * `draw()`'s result once `statement` succeeded, drawn while PostgreSQL executes and commits it: the
 * statement reaches its connection first (within the current turn of the event loop; draw() waits for
 * the next), so at low load the drawing (a Pix QR image: up to a quarter of a sale's CPU) costs no latency.
 */
export async function drawWhileWriting<T>(statement: Promise<void>, draw: () => T): Promise<T> {
  const [, drawn] = await Promise.all([statement, new Promise<void>((resolve) => setImmediate(resolve)).then(draw)]);
  return drawn;
}
