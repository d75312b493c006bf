/**
 * Passwords: scrypt (memory-hard) with OWASP's parameters (N = 2^17, r = 8,
 * p = 1: 128 MiB and a few hundred milliseconds a hash). The stored string
 * names its parameters, `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>`, so they
 * can be raised later and old hashes still verify.
 *
 * Each hash holds 128 MiB while it runs: at most HASHES_AT_ONCE run at a
 * time and at most HASHES_WAITING wait, so a burst of sign-ins costs bounded
 * memory; past that the request is refused (503) rather than queued forever.
 * The checks of e-mails with recent failures (under attack) wait in a lane of
 * their own that never holds every running place (HashLane); ahead of the
 * gate the service lets one hash per e-mail in at a time (attempts.ts).
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { AppError } from '../../http/errors.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';

export interface ScryptParams {
  /** log2 of the cost N. */
  logN: number;
  r: number;
  p: number;
}

/** OWASP Password Storage Cheat Sheet: scrypt with N = 2^17, r = 8, p = 1. */
export const OWASP_SCRYPT: ScryptParams = { logN: 17, r: 8, p: 1 };

/**
 * For a password the service draws itself and nobody chose (the sandbox demo
 * admin's: 18 random bytes, 144 bits): a work factor makes guessing a
 * person's password costly, and no work factor changes the odds of guessing
 * one of 2^144, so its hash costs 1/128 of OWASP's (N = 2^10, 4 MiB, about a
 * millisecond) and a sandbox's first start does not spend half a second of
 * CPU on it. A password a person types is hashed at OWASP's, this admin's
 * next one too.
 */
/**
 * Tests only, at 1/128 of OWASP's cost on the same code path: the in-process
 * test kit's services, and a `svc` server started with
 * DASHBOARD_TEST_PASSWORD_HASHES (refused with SVC_ENV=production), whose
 * browser tests activate, sign in and lock out people by the dozen.
 */
export const TEST_SCRYPT: ScryptParams = { logN: 10, r: 8, p: 1 };

export const GENERATED_PASSWORD_SCRYPT: ScryptParams = { logN: 10, r: 8, p: 1 };

const KEY_BYTES = 32;
const SALT_BYTES = 16;
const HASHES_AT_ONCE = 2;
const HASHES_WAITING = 64;

/** Seconds a client refused for a full queue is told to wait: the queue drains in about that. */
const BUSY_RETRY_SECONDS = 5;

/**
 * Where a hash waits: `device` (a sign-in from a browser holding the e-mail's
 * device cookie, device-cookie.ts: a person signing in where they did
 * before), `first` (an e-mail with no recent failure, and any hash of a new
 * password) or `last` (an e-mail with failures: under attack, or mistyped).
 * A freed place goes to the device lane's next hash, then the first lane's,
 * then the last lane's, each lane in arrival order; the last lane never holds
 * every running place. So a device-lane check waits at most for one running
 * hash to end, whatever floods the other lanes, and has a queue of its own.
 */
export type HashLane = 'device' | 'first' | 'last';
const LANES = ['device', 'first', 'last'] as const;

const running: Record<HashLane, number> = { device: 0, first: 0, last: 0 };
const waiting: Record<HashLane, (() => void)[]> = { device: [], first: [], last: [] };

const mayStart = (lane: HashLane): boolean =>
  running.device + running.first + running.last < HASHES_AT_ONCE && (lane !== 'last' || running.last < HASHES_AT_ONCE - 1);

/** Hands the free places to the waiting hashes that may take them. */
function wake(): void {
  for (const lane of LANES) {
    while (waiting[lane].length > 0 && mayStart(lane)) {
      running[lane]++;
      waiting[lane].shift()!();
    }
  }
}

async function gated<T>(work: () => Promise<T>, lane: HashLane): Promise<T> {
  // A lane with someone waiting goes after them, even with a place free: arrival order within the lane.
  if (waiting[lane].length === 0 && mayStart(lane)) running[lane]++;
  else {
    // 503, as for a database that does not answer: the request did nothing and may be retried.
    const queued = lane === 'device' ? waiting.device.length : waiting.first.length + waiting.last.length;
    if (queued >= HASHES_WAITING) {
      throw new AppError('SERVICE_UNAVAILABLE', ERRORS.SERVICE_UNAVAILABLE.temporarily, undefined, BUSY_RETRY_SECONDS);
    }
    // The place is taken for this hash by wake() before it is resumed.
    await new Promise<void>((resolve) => waiting[lane].push(resolve));
  }
  try {
    return await work();
  } finally {
    running[lane]--;
    wake();
  }
}

function derive(password: string, salt: Buffer, params: ScryptParams, lane: HashLane = 'first'): Promise<Buffer> {
  const N = 2 ** params.logN;
  // 128 · N · r bytes, plus room: node's default maxmem (32 MiB) is below OWASP's 128 MiB.
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 256 * N * params.r };
  return gated(
    () =>
      new Promise((resolve, reject) => {
        scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key)));
      }),
    lane,
  );
}

export async function hashPassword(password: string, params: ScryptParams = OWASP_SCRYPT): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  return `scrypt$${params.logN}$${params.r}$${params.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

const STORED = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** The parameters a stored hash was made with. */
export function paramsOf(stored: string): ScryptParams | undefined {
  const match = STORED.exec(stored);
  return match ? { logN: Number(match[1]), r: Number(match[2]), p: Number(match[3]) } : undefined;
}

export async function verifyPassword(password: string, stored: string, lane: HashLane = 'first'): Promise<boolean> {
  const match = STORED.exec(stored);
  const params = paramsOf(stored);
  if (!match || !params) return false;
  const expected = Buffer.from(match[5]!, 'base64url');
  const key = await derive(password, Buffer.from(match[4]!, 'base64url'), params, lane);
  return key.length === expected.length && timingSafeEqual(key, expected);
}
