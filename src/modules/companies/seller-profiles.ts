/**
 * The seller's name and fee plan as every confirmation needs them, cached in
 * the process for SELLER_PROFILE_CACHE_MS: reading them is one round trip of
 * the ten of a Pix confirmation. A fee change made through this process
 * applies at once (setFees forgets the entry); one made by another process
 * (the CLI, another API node) applies within SELLER_PROFILE_CACHE_MS, as a
 * revoked key is refused within 2 s. The expiry is wall-clock time, not
 * business time.
 */
import type { Db } from '../../db/database.js';
import { sellerProfile, type SellerProfile } from './repo.js';

export const SELLER_PROFILE_CACHE_MS = 2_000;
/** Entries kept at most; beyond it the cache starts over (one entry per active seller). */
const MAX_ENTRIES = 10_000;

const cache = new Map<string, { profile: SellerProfile; until: number }>();

export async function cachedSellerProfile(ex: Db, companyId: string): Promise<SellerProfile> {
  const now = Date.now();
  const hit = cache.get(companyId);
  if (hit && hit.until > now) return hit.profile;
  const profile = await sellerProfile(ex, companyId);
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(companyId, { profile, until: now + SELLER_PROFILE_CACHE_MS });
  return profile;
}

/** Called when this process changes a company's fee plan. */
export function forgetSellerProfile(companyId: string): void {
  cache.delete(companyId);
}
