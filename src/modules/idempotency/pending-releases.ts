/**
 * Claims whose release a database outage cut (issue 28). A request that fails
 * without storing a response releases its key (IdempotencyScope.release);
 * when the database is unreachable that delete fails too, and the key would
 * stay STARTED until its 60 s lease ran out, answering every retry 409
 * IDEMPOTENCY_KEY_IN_USE meanwhile (the SDK waits at most 30 s). So the
 * claim is remembered here, with the lease it held, and released once the
 * database answers again: by the first claim this process makes after the
 * outage (a retry with the same key included, which then takes the key at
 * once). The delete is guarded by the lease, so a claim another request took
 * over after the lease ran out is never removed.
 */
import type { Db } from '../../db/database.js';
import { isDatabaseUnavailable } from '../../db/unavailable.js';
import * as repo from './repo.js';

/** Claims remembered at most; past it the oldest go (their leases run out anyway). */
const MAX_PENDING = 10_000;

export interface StartedClaim {
  companyId: string;
  key: string;
  /** The lease the claim set (idempotency_keys.locked_until). */
  lease: Date;
}

export class PendingReleases {
  private readonly claims = new Map<string, StartedClaim>();

  get size(): number {
    return this.claims.size;
  }

  /** Releases `claim` now; if the database cannot be reached, remembers it for later. Other errors are thrown. */
  async release(db: Db, claim: StartedClaim): Promise<void> {
    try {
      await repo.deleteStartedUnder(db, claim.companyId, claim.key, claim.lease);
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      this.remember(claim);
      throw err;
    }
  }

  /** Releases every remembered claim (one statement each, only after an outage); a claim that fails again stays. */
  async flush(db: Db): Promise<void> {
    for (const [id, claim] of [...this.claims]) {
      try {
        await repo.deleteStartedUnder(db, claim.companyId, claim.key, claim.lease);
        this.claims.delete(id);
      } catch (err) {
        if (isDatabaseUnavailable(err)) return;
        throw err;
      }
    }
  }

  private remember(claim: StartedClaim): void {
    const id = `${claim.companyId}\u0000${claim.key}`;
    this.claims.delete(id);
    this.claims.set(id, claim);
    if (this.claims.size > MAX_PENDING) this.claims.delete(this.claims.keys().next().value!);
  }
}
