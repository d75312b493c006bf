/**
 * What guards every check of a password or a two-step code: sign-in and its
 * code step, accepting an invitation with an existing user's password, and
 * the re-checks inside a session (changing the password, turning two-step
 * verification on or off).
 *
 * - One password hash in flight per e-mail (so per user, and per session of
 *   that user): another one is refused at once with 429, before it reaches
 *   the process's hashing gate (password.ts: 2 running, 64 waiting). A flood
 *   on one e-mail, from however many addresses, holds one place in the gate;
 *   and an e-mail with no failure in the window (a person signing in) waits
 *   in the gate's first lane, ahead of the e-mails under attack.
 * - The lockout, in the database (every process shares it): an attempt is
 *   counted as a failure before its check (reserve), taken back when it was
 *   right (right), kept when it was wrong (wrong). 10 wrong passwords of an
 *   e-mail, or 5 wrong codes of its user, within 15 minutes lock the e-mail
 *   15 minutes; attempts made at once past the limit are refused by the
 *   count, not let through to the hash while the first ones run.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { DomainError, type Outcome } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import type { HashLane } from './password.js';
import * as repo from './repo.js';
import { LOCKOUT_CODE_FAILURES, LOCKOUT_FAILURES, LOCKOUT_MS, LOCKOUT_WINDOW_MS } from './rules.js';

const LIMITS: Record<repo.FailureKind, number> = { password: LOCKOUT_FAILURES, code: LOCKOUT_CODE_FAILURES };

/** An attempt counted as a failure until it is found right. */
export interface Reservation {
  id: string;
  email: string;
  kind: repo.FailureKind;
  /** The hashing gate's lane: first when the e-mail had no failure in the window before this attempt. */
  lane: HashLane;
}

export class Attempts {
  /** The e-mails with a password hash in flight in this process. */
  private readonly hashing = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Runs `work` (which hashes) as `email`'s one hash in flight; 429 at once while another runs. */
  async oneAtATime<T>(email: string, work: () => Promise<Outcome<T>>): Promise<Outcome<T>> {
    if (this.hashing.has(email)) return new DomainError('RATE_LIMITED', ERRORS.RATE_LIMITED.passwordCheckRunning, undefined, 1);
    this.hashing.add(email);
    try {
      return await work();
    } finally {
      this.hashing.delete(email);
    }
  }

  /** The 429 of a locked e-mail, with the minutes left. */
  locked(until: Date): DomainError {
    const seconds = Math.max(1, Math.ceil((until.getTime() - this.clock.now().getTime()) / 1000));
    return new DomainError('RATE_LIMITED', ERRORS.RATE_LIMITED.signInLocked({ minutes: Math.ceil(seconds / 60) }), undefined, seconds);
  }

  /** Counts an attempt of `kind` as a failure before its check; the lockout's refusal when the e-mail is locked or the count is past the limit. */
  async reserve(email: string, kind: repo.FailureKind): Promise<Outcome<Reservation>> {
    const now = this.clock.now();
    const row = { id: randomUUID(), email, kind };
    const reserved = await repo.reserveAttempt(this.db, { ...row, at: now }, this.windowStart(), LIMITS[kind]);
    if ('lockedUntil' in reserved) return this.locked(reserved.lockedUntil);
    // Attempts at once beyond the limit: the first ones, if wrong, lock the e-mail for this long.
    if (reserved.count > LIMITS[kind]) return this.locked(new Date(now.getTime() + LOCKOUT_MS));
    return { ...row, lane: reserved.count === 1 ? 'first' : 'last' };
  }

  /** The attempt was right: its failure is taken back (the others stay until the whole sign-in goes through). */
  async right(reservation: Reservation): Promise<void> {
    await repo.takeBackAttempt(this.db, reservation.id);
  }

  /** The attempt was wrong: its failure stays; at the limit the e-mail is locked. Answers the lock's end when it is locked now. */
  async wrong(reservation: Reservation): Promise<Date | undefined> {
    const count = await repo.failureCount(this.db, reservation.email, reservation.kind, this.windowStart());
    if (count < LIMITS[reservation.kind]) return undefined;
    const until = new Date(this.clock.now().getTime() + LOCKOUT_MS);
    await repo.lockEmail(this.db, reservation.email, until);
    return until;
  }

  /** A whole sign-in went through: the e-mail's failures, passwords and codes, are forgotten. */
  async clear(email: string): Promise<void> {
    await repo.clearFailures(this.db, email);
  }

  private windowStart(): Date {
    return new Date(this.clock.now().getTime() - LOCKOUT_WINDOW_MS);
  }
}
