/**
 * The API's side of the vault's boundary: the vault never reads
 * `payment_intents`, so the API tells it which card intents are over
 * (confirmed, failed, canceled), and the vault refuses their tickets and
 * erases the cards of their tokens (vault/closed-intents.ts). An expired
 * intent needs no notice: its tickets and tokens expire with it.
 *
 * The notice is durable without an outbox row of its own: a card intent that
 * closes, by whichever path (a confirmation's outcome, the recovery of an
 * unknown one, a cancel), enters the index of intents still to tell
 * (`vault_told_at` NULL, migration 019) in the commit that closes it. The
 * worker tells the vault of them every tick (workers/tell-vault.ts) and marks
 * them told once the vault acknowledged, so a vault unreachable when an
 * intent closes learns it when it is back. A cancel also tells the vault at
 * once, as the buyer's page may still hold the ticket; a confirmation needs
 * no such call: the vault noted the intent closed when it spent the token.
 *
 * A vault that did not answer is not asked again for RETRY_AFTER_MS, by the
 * worker or by a cancel: a paused vault (which holds the call until its
 * timeout) would otherwise hold the worker's other steps, and every cancel,
 * that long each time.
 */
import type { Clock } from '../../lib/clock.js';
import type { Db } from '../../db/database.js';
import type { PaymentIntentRow } from '../../db/types.js';
import type { VaultClient } from '../vault/index.js';
import * as repo from './repo.js';

/** Intents told per call (the vault's route takes at most 500). */
const NOTICE_BATCH = 200;
/** How long after the vault failed to answer it is asked again. */
export const RETRY_AFTER_MS = 5_000;

type ClosedIntent = Pick<PaymentIntentRow, 'id' | 'expires_at'>;

export class VaultNotices {
  /** Epoch milliseconds before which the vault is not asked again (it did not answer). */
  private quietUntil = 0;

  constructor(private readonly deps: { db: Db; clock: Clock; vault: Pick<VaultClient, 'intentsClosed'> }) {}

  /** The worker's round: tells the vault of the closed card intents it has not acknowledged; answers how many. Rejects when the vault does not answer. */
  async tellClosed(): Promise<number> {
    if (this.resting()) return 0;
    let told = 0;
    for (;;) {
      const due = await repo.untoldClosedCardIntents(this.deps.db, NOTICE_BATCH);
      if (due.length > 0) await this.tell(due);
      told += due.length;
      if (due.length < NOTICE_BATCH) return told;
    }
  }

  /** Tells the vault at once that this card intent is over; when the vault does not answer, the worker tells it later. */
  async tellNow(intent: ClosedIntent): Promise<void> {
    if (this.resting()) return;
    try {
      await this.tell([intent]);
    } catch {
      // Left to the worker, which tells it again and logs why the vault did not answer.
    }
  }

  private resting(): boolean {
    return this.deps.clock.now().getTime() < this.quietUntil;
  }

  private async tell(intents: ClosedIntent[]): Promise<void> {
    try {
      await this.deps.vault.intentsClosed(intents.map((i) => ({ intentId: i.id, expiresAt: i.expires_at.getTime() })));
    } catch (err) {
      this.quietUntil = this.deps.clock.now().getTime() + RETRY_AFTER_MS;
      throw err;
    }
    await repo.markVaultTold(this.deps.db, intents.map((i) => i.id), this.deps.clock.now());
  }
}
