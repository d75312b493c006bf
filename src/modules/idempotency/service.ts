/**
 * Idempotency-Key. Scope: company + key (a deployment is one environment).
 *
 * A first request claims the key with a STARTED row, committed at once, so a
 * concurrent twin sees it and gets 409 IDEMPOTENCY_KEY_IN_USE. The service
 * doing the work stores its outcome through the scope's `save()` in the SAME
 * database transaction as its effect: either both the effect and the stored
 * response exist, or neither does. A retry with the same route and body gets
 * the stored status and body byte for byte; with another route or body, 422
 * IDEMPOTENCY_KEY_REUSED. A request that fails before acting releases its
 * row, so a corrected retry with the same key works.
 *
 * Stored bodies are sealed (AES-256-GCM): they may hold a webhook secret,
 * shown only in its registration response, and buyers' personal data. A view
 * is stored in its compact form (StoredForm: without the Pix QR image, which
 * a replay draws back in), the error bodies as they are.
 *
 * A STARTED row carries a lease. If its process died, the lease runs out and a
 * retry takes the row over; operations with several phases (confirm) resume
 * the work recorded under the key instead of starting it again, and the
 * worker finishes the ones nobody retries (`recorderFor`).
 *
 * A request whose whole effect is one SQL statement may skip the claim: it
 * inserts its key already DONE, with its response, in that statement
 * (`UnclaimedKey.insertDone`). A concurrent twin then blocks on the key's
 * unique index until the first commits; its statement fails whole (nothing
 * of it is written) and it claims the key as above, which replays the stored
 * response. The semantics are the same as claim-then-save: never two
 * effects under one key, a response stored if and only if the effect is.
 *
 * A request that calls a provider between two commits (persist, call,
 * persist) claims its key STARTED in its first statement
 * (`UnclaimedKey.insertStarted`, the same unique violation when it exists)
 * and stores its response in the second (`UnclaimedKey.markDone`): a twin
 * meanwhile finds the key STARTED under its lease (409), and a process that
 * dies between them leaves a key a retry takes over once the lease ran out.
 *
 * A release a database outage cut is not left to the lease: the claim is
 * remembered (pending-releases.ts) and released by this process's first
 * claim once the database answers, so a retry is served as soon as the
 * outage ends instead of 409 until the lease runs out.
 */
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.js';
import type { InsertFragment, UpdateFragment } from '../../db/one-statement.js';
import { rollback } from '../../db/transact.js';
import type { Database } from '../../db/types.js';
import type { Sealer } from '../../lib/aes-gcm.js';
import type { Clock } from '../../lib/clock.js';
import { DomainError, isDomainError, type Outcome } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import { DEFAULT_LANGUAGE, type Language } from '../../lib/i18n/language.js';
import { PendingReleases } from './pending-releases.js';
import * as repo from './repo.js';
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_RETENTION_MS, responseBytes, storedBytes, type StoredForm } from './rules.js';

/** Where a service records the outcome of an idempotent request, inside its own transaction. */
export interface ResponseRecorder {
  readonly key: string;
  save(trx: Transaction<Database>, outcome: Outcome<unknown>): Promise<void>;
}

/**
 * A recorder that stores nothing, for a confirmation the service itself makes
 * once with a fresh key (the demo checkout, a payment link's page): the
 * confirm claims the intent under the key, and nobody ever replays it; the
 * outcome is read back from the transaction itself.
 */
export function unstoredRecorder(prefix: string): ResponseRecorder {
  return { key: `${prefix}-${randomUUID()}`, save: async () => {} };
}

export interface IdempotencyDeps {
  db: Db;
  clock: Clock;
  sealer: Sealer;
  /** The error table's status of an error (the HTTP layer's; this module stores responses, it does not decide them). */
  statusOf: (error: DomainError) => number;
  /** How views are stored and replayed. */
  storedForm: StoredForm;
}

/** The service's deps with the claims whose release an outage cut (one set per service, shared by its scopes). */
type ScopeDeps = IdempotencyDeps & { pending: PendingReleases };

/** What is stored for a key: the response, a view in its stored form, sealed. */
const sealedResponse = (deps: IdempotencyDeps, outcome: Outcome<unknown>, language: Language): string =>
  deps.sealer.seal(storedBytes(outcome, language, deps.storedForm));

export type Claim = { kind: 'new'; scope: IdempotencyScope } | { kind: 'replay'; status: number; body: string };

const inUse = () => new DomainError('IDEMPOTENCY_KEY_IN_USE', ERRORS.IDEMPOTENCY_KEY_IN_USE.running);

/**
 * One claimed key. A live request whose key is no longer STARTED lost its
 * lease to a retry, which rolls its work back; when the worker finishes the
 * request of a process that died (`recovering`), a key already gone or
 * finished is simply left alone.
 */
export class IdempotencyScope implements ResponseRecorder {
  status: number | undefined;
  body: string | undefined;

  constructor(
    private readonly deps: ScopeDeps,
    readonly companyId: string,
    readonly key: string,
    /** The language its error response is stored in: the request's (a replay sends the same bytes). */
    private readonly language: Language,
    /** The lease this request's claim set; undefined for the worker finishing a dead process's request. */
    private readonly lease?: Date,
    private readonly recovering = false,
  ) {}

  async save(trx: Transaction<Database>, outcome: Outcome<unknown>): Promise<void> {
    const body = responseBytes(outcome, this.language);
    const errorStatus = isDomainError(outcome) ? this.deps.statusOf(outcome) : undefined;
    const status = await repo.markDone(trx, this.companyId, this.key, errorStatus, sealedResponse(this.deps, outcome, this.language));
    if (status === undefined) {
      if (this.recovering) return;
      // The effect written in `trx` must not commit without its response.
      rollback(new DomainError('IDEMPOTENCY_KEY_IN_USE', ERRORS.IDEMPOTENCY_KEY_IN_USE.takenOver));
    }
    this.status = status;
    this.body = body;
  }

  /**
   * Undoes the claim of a request that failed without storing a response, so
   * the key can be retried; with the database unreachable, once it answers
   * again (PendingReleases).
   */
  async release(): Promise<void> {
    if (this.body !== undefined) return;
    if (this.lease) await this.deps.pending.release(this.deps.db, { companyId: this.companyId, key: this.key, lease: this.lease });
    else await repo.deleteStarted(this.deps.db, this.companyId, this.key);
  }
}

/** A key its request has not claimed: it stores the response in the statement doing the work, or claims the key as usual. */
export class UnclaimedKey {
  /** The lease insertStarted set, for the scope claimed() gives. */
  private lease: Date | undefined;

  constructor(
    private readonly service: IdempotencyService,
    private readonly deps: ScopeDeps,
    readonly companyId: string,
    readonly key: string,
    private readonly fingerprint: string,
    private readonly successStatus: number,
    private readonly language: Language,
  ) {}

  /** The usual claim (IdempotencyService.claim), for a request that cannot do its work in one statement. */
  claim(): Promise<Outcome<Claim>> {
    return this.service.claim(this.companyId, this.key, this.fingerprint, this.successStatus, this.language);
  }

  /** The key inserted DONE with `outcome` as its response, for the request's statement; it aborts the statement when the key exists (`isKeyTaken`). */
  insertDone(outcome: Outcome<unknown>): InsertFragment {
    const status = isDomainError(outcome) ? this.deps.statusOf(outcome) : this.successStatus;
    const row = {
      companyId: this.companyId,
      key: this.key,
      fingerprint: this.fingerprint,
      successStatus: this.successStatus,
      status,
      sealedBody: sealedResponse(this.deps, outcome, this.language),
      now: this.deps.clock.now(),
    };
    return repo.insertDoneFragment(row);
  }

  /** The key claimed STARTED with its lease, for the request's first statement; it aborts the statement when the key exists (`isTaken`). */
  insertStarted(): InsertFragment {
    const now = this.deps.clock.now();
    this.lease = new Date(now.getTime() + IDEMPOTENCY_LEASE_MS);
    const row = { companyId: this.companyId, key: this.key, fingerprint: this.fingerprint, successStatus: this.successStatus, lease: this.lease, now };
    return repo.insertStartedFragment(row);
  }

  /**
   * After `insertStarted` committed: the key's STARTED row marked DONE with
   * `outcome`, for the statement that records it. A row no longer STARTED is
   * left alone: only the request that finished the work (a retry that took
   * the key over, the worker) marks it DONE, in the commit that finishes it.
   */
  markDone(outcome: Outcome<unknown>): UpdateFragment {
    const status = isDomainError(outcome) ? this.deps.statusOf(outcome) : this.successStatus;
    return repo.markDoneFragment(this.companyId, this.key, status, sealedResponse(this.deps, outcome, this.language));
  }

  /** After `insertStarted` committed: the key's scope, as a claim gives it (its `save`, its `release`). */
  claimed(): IdempotencyScope {
    return new IdempotencyScope(this.deps, this.companyId, this.key, this.language, this.lease);
  }

  /** Whether a statement failed because the key exists (another request holds or held it): claim it then. */
  isTaken(err: unknown): boolean {
    return repo.isKeyTaken(err);
  }
}

export class IdempotencyService {
  private readonly deps: ScopeDeps;

  constructor(deps: IdempotencyDeps) {
    this.deps = { ...deps, pending: new PendingReleases() };
  }

  /** A key left unclaimed for a request that may store its response in the statement doing its work (UnclaimedKey). */
  unclaimed(companyId: string, key: string, fingerprint: string, successStatus: number, language: Language): UnclaimedKey {
    return new UnclaimedKey(this, this.deps, companyId, key, fingerprint, successStatus, language);
  }

  /** Claims `key` for a request with this fingerprint, or answers the stored response of an earlier one. */
  async claim(companyId: string, key: string, fingerprint: string, successStatus: number, language: Language = DEFAULT_LANGUAGE): Promise<Outcome<Claim>> {
    const { db, clock, sealer, pending } = this.deps;
    // The first claim after an outage releases the keys it cut (a retry's own key among them): nothing while none was cut.
    if (pending.size > 0) await pending.flush(db);
    const now = clock.now();
    const lease = new Date(now.getTime() + IDEMPOTENCY_LEASE_MS);
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await repo.insertStarted(db, { companyId, key, fingerprint, successStatus, lease, now })) {
        return { kind: 'new', scope: new IdempotencyScope(this.deps, companyId, key, language, lease) };
      }
      const row = await repo.findKey(db, companyId, key);
      if (!row) continue; // released between our insert and select: try again
      if (now.getTime() - row.created_at.getTime() >= IDEMPOTENCY_RETENTION_MS) {
        await repo.deleteGeneration(db, companyId, key, row.created_at);
        continue;
      }
      if (row.fingerprint !== fingerprint) {
        return new DomainError('IDEMPOTENCY_KEY_REUSED', ERRORS.IDEMPOTENCY_KEY_REUSED.otherRequest, [{ field: 'Idempotency-Key', message: PROBLEMS.idempotencyKeyReused }]);
      }
      if (row.state === 'DONE') return { kind: 'replay', status: row.response_status!, body: this.deps.storedForm.expand(sealer.open(row.response_body!)) };
      if (row.locked_until.getTime() > now.getTime()) return inUse();
      // The first request died holding the key: take it over.
      if (await repo.takeOver(db, companyId, key, row.locked_until, lease)) {
        return { kind: 'new', scope: new IdempotencyScope(this.deps, companyId, key, language, lease) };
      }
    }
    return inUse();
  }

  /** The recorder of a request whose process died, for the worker that finishes it (an error stored in the default language). */
  recorderFor(companyId: string, key: string): ResponseRecorder {
    return new IdempotencyScope(this.deps, companyId, key, DEFAULT_LANGUAGE, undefined, true);
  }

  /** Deletes keys past their 24-hour retention. */
  async purge(): Promise<number> {
    return repo.deleteOlderThan(this.deps.db, new Date(this.deps.clock.now().getTime() - IDEMPOTENCY_RETENTION_MS));
  }
}
