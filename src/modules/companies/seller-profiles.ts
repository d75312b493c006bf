/**
 * The seller's name and fee plan as every confirmation needs them, cached in
 * the process for SELLER_PROFILE_CACHE_MS: reading them is one round trip of
 * the ten of a Pix confirmation. A fee change made through this process
 * applies at once (setFees forgets the entry); one made by another process
 * (the CLI, another API node) applies within SELLER_PROFILE_CACHE_MS, as a
 * revoked key is refused within 2 s. The expiry is wall-clock time, not
 * business time. Confirmations that miss the cache together, outside a
 * transaction, share one read (SingleFlight); one inside a transaction reads
 * in it, as a shared read could fail with another request's transaction.
 */
import type { Db } from '../../db/database.js';
import { LruMap } from '../../lib/lru.js';
import { SingleFlight } from '../../lib/single-flight.js';
import { sellerProfile, type SellerProfile } from './repo.js';

export const SELLER_PROFILE_CACHE_MS = 2_000;
/** Entries kept at most (one per active seller); beyond it the least recently used goes. */
const MAX_ENTRIES = 10_000;

const cache = new LruMap<string, { profile: SellerProfile; until: number }>(MAX_ENTRIES);
const reads = new SingleFlight<string, SellerProfile>();
/** Bumped by every forget: a read that started before one does not fill the cache. */
let forgets = 0;

export async function cachedSellerProfile(ex: Db, companyId: string): Promise<SellerProfile> {
  // A cache's age is wall-clock time, not the service's clock: moving the sandbox's clock must not keep or drop a fee plan.
  const now = Date.now();
  const hit = cache.get(companyId);
  if (hit && hit.until > now) return hit.profile;
  const forgetsBefore = forgets;
  const profile = await (ex.isTransaction ? sellerProfile(ex, companyId) : reads.run(companyId, () => sellerProfile(ex, companyId)));
  if (forgets !== forgetsBefore) return profile;
  cache.set(companyId, { profile, until: now + SELLER_PROFILE_CACHE_MS });
  return profile;
}

/** Called when this process changes a company's fee plan. */
export function forgetSellerProfile(companyId: string): void {
  forgets++;
  cache.delete(companyId);
  reads.forget(companyId);
}
