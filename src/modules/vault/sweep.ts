/**
 * The vault's sweep (run by the vault's own process: its database role is the
 * one that may write these tables; workers/sweep-vault.ts). Card data is kept
 * only while a payment may still need it (as PCI DSS asks): a token's card and
 * CVV go in the commit that spends it (authorize.ts); the sweep erases those
 * of tokens that will never be spent: expired with their intent, or of an
 * intent the vault knows is over (closed-intents.ts: a token of it spent, or
 * the API's notice that it was confirmed, failed or canceled),
 * and the cards that versions before migration 014 left on spent tokens,
 * whose fingerprint it keeps first (it is the one thing it must open a card
 * for). What stays: brand, last 4 digits, expiry and the keyed fingerprint.
 * It also drops the tokenize counters, JWE digests and closed intents that have served.
 */
import type { Db } from '../../db/database.js';
import type { CardFingerprinter } from './card-fingerprint.js';
import type { VaultSealers } from './master-key.js';
import * as repo from './repo.js';

/** Tokens erased per transaction: a backlog (the cards left by earlier versions) goes in several short ones. */
const ERASE_BATCH = 200;
const DAY_MS = 86_400_000;

export interface VaultSweepDeps {
  db: Db;
  sealers: VaultSealers;
  fingerprint: CardFingerprinter;
}

export class VaultSweeper {
  constructor(private readonly deps: VaultSweepDeps) {}

  /** One round; answers how many tokens had their card erased. */
  async sweep(now: Date): Promise<number> {
    let erased = 0;
    for (;;) {
      const batch = await this.eraseDueCards(now);
      erased += batch;
      if (batch < ERASE_BATCH) break;
    }
    const dayAgo = new Date(now.getTime() - DAY_MS);
    await repo.deleteAttemptsBefore(this.deps.db, dayAgo);
    await repo.deleteCardIntentsBefore(this.deps.db, dayAgo);
    await repo.deleteUsedJwesExpiredBy(this.deps.db, now);
    await repo.deleteClosedIntentsExpiredBy(this.deps.db, now);
    return erased;
  }

  private async eraseDueCards(now: Date): Promise<number> {
    const { db, sealers, fingerprint } = this.deps;
    return db.transaction().execute(async (trx) => {
      const due = await repo.lockTokensDue(trx, now, ERASE_BATCH);
      for (const token of due) {
        if (token.fingerprint || !token.card_sealed) continue;
        const { number } = JSON.parse(sealers.cards.open(token.card_sealed)) as { number: string };
        await repo.setFingerprint(trx, token.id, fingerprint(number));
      }
      await repo.eraseCards(trx, due.map((t) => t.id));
      return due.length;
    });
  }
}
