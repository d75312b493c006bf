/**
 * One line of a company's audit log: who did what, to what, when, from where.
 * Dashboard routes record one after each change they make, in the change's
 * transaction when it has one.
 */
import type { Db } from '../../db/database.js';
import type { AuditAction } from './actions.js';

export { AUDIT_ACTIONS, type AuditAction } from './actions.js';

export interface AuditEntry {
  companyId: string;
  /** Absent for a failed sign-in of an e-mail no user has. */
  userId?: string;
  email: string;
  action: AuditAction;
  /** The id acted on (a transaction, a key, a member's user id, …). */
  target?: string;
  ip: string;
  /** Small, secret-free facts (an amount, a role); never a key, a secret or a password. */
  details?: Record<string, string | number | boolean>;
}

export interface AuditRecorder {
  /** `executor`: the caller's transaction, or the database for a change that has none. */
  record(executor: Db, entry: AuditEntry): Promise<void>;
}
