/**
 * The dashboard's JSON API over a test app, without the identity module: a
 * test guard that takes its actor from the test (`t.as(role)`) and enforces
 * the roles table (may(role, permission)) as the session guard does, so role
 * tests are real, and an audit recorder that keeps its lines in memory.
 * When the session guard lands, the app is built with it instead; only this
 * seam changes.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { AppError } from '../../src/http/errors.js';
import type { Db } from '../../src/db/database.js';
import type { AuditEntry, AuditRecorder } from '../../src/modules/audit/entry.js';
import { may, type Actor, type DashboardGuard, type Role } from '../../src/modules/users/roles.js';
import { startTestApp, type TestApp, type TestAppOptions } from './app.js';
import type { Engine } from './db.js';

/** The test's actor, read by the guard on each request; none: 401. */
interface ActorHolder {
  actor?: Actor;
}

export function testGuard(holder: ActorHolder): DashboardGuard {
  return (permission) => async (request) => {
    const actor = holder.actor;
    if (!actor) throw new AppError('UNAUTHORIZED', { en: 'Sign in first (test guard)', 'pt-BR': 'Entre primeiro (guarda de teste)' });
    if (!may(actor.role, permission)) throw new AppError('FORBIDDEN', { en: `The ${actor.role} role may not do this (test guard)`, 'pt-BR': `O papel ${actor.role} não pode fazer isto (guarda de teste)` });
    request.actor = actor;
  };
}

export class MemoryAudit implements AuditRecorder {
  readonly entries: AuditEntry[] = [];

  async record(_executor: Db, entry: AuditEntry): Promise<void> {
    this.entries.push(entry);
  }
}

export interface DashboardTestApp extends TestApp {
  audit: MemoryAudit;
  /** Acts as a member of `companyId` (default: the test company) with this role; undefined: signed out. */
  as(role: Role | undefined, companyId?: string): void;
  /** inject under /dashboard/api as the current actor (no API key). */
  dash(opts: InjectOptions & { url: string }): Promise<LightMyRequestResponse>;
}

export async function startDashboardApp(engine: Engine, opts: TestAppOptions = {}): Promise<DashboardTestApp> {
  const holder: ActorHolder = {};
  const audit = new MemoryAudit();
  const t = await startTestApp(engine, { ...opts, dashboard: { guard: testGuard(holder), audit } });
  const as = (role: Role | undefined, companyId = t.companyId) => {
    if (role === undefined) delete holder.actor;
    else holder.actor = { userId: `usr_${role}`, email: `${role}@loja.example`, name: role, companyId, role, sessionId: `session-${role}` };
  };
  as('admin');
  return { ...t, audit, as, dash: (o) => t.app.inject({ ...o, url: `/dashboard/api${o.url}` }) };
}
