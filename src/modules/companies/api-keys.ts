/**
 * API keys: `svc_test_` (sandbox) or `svc_live_` (production) followed by 43
 * base-62 characters of 32 random bytes. Only the SHA-256 of the key is
 * stored: a leaked database does not leak usable keys, and a plain hash is
 * enough because the key has 256 bits of entropy (no dictionary to guess).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Environment } from '../../config.js';
import type { ApiKeys } from '../../http/auth.js';

export { SCOPES, type Scope } from '../../http/scopes.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 43; // ceil(256 / log2(62))

function keyPrefix(env: Environment): string {
  return env === 'production' ? 'svc_live_' : 'svc_test_';
}

export function environmentOfKey(token: string): Environment | undefined {
  if (token.startsWith('svc_live_')) return 'production';
  if (token.startsWith('svc_test_')) return 'sandbox';
  return undefined;
}

function base62(bytes: Buffer): string {
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(SECRET_LENGTH, '0');
}

/** How a key is shown once issued: its environment's prefix and its last four characters (all that is stored of it). */
export function shownKeyPrefix(environment: string, hint: string): string {
  return `${environment === 'production' ? 'svc_live_' : 'svc_test_'}…${hint}`;
}

export function hashKey(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function generateKey(env: Environment): { token: string; hash: string; hint: string } {
  const token = keyPrefix(env) + base62(randomBytes(32));
  return { token, hash: hashKey(token), hint: token.slice(-4) };
}

/** A well-formed key: known prefix and 43 base-62 characters. */
export function looksLikeKey(token: string): boolean {
  return /^svc_(test|live)_[0-9A-Za-z]{43}$/.test(token);
}

/** Finds a key by the SHA-256 of its token (http/auth caches the answers). */
export type KeyLookup = ApiKeys['lookup'];

/** The keys' format, as authentication reads it (its lookup is CompanyService.keyLookup; app.ts joins them). */
export const keyFormat: Omit<ApiKeys, 'lookup'> = { looksLikeKey, environmentOf: environmentOfKey, hash: hashKey };
