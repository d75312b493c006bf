/**
 * The dashboard's roles and what each may do: the one table every dashboard
 * route checks on the server (the pages only hide what a role cannot use).
 * It imports only the API's scope list, which imports nothing, so the pages'
 * bundle (web/dashboard) reads it too.
 */
import { SCOPES, SCOPE_PARTS, type Scope } from '../../http/scopes.js';

export const ROLES = ['admin', 'finance', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  'sales.read',
  'sales.refund',
  'sales.simulate',
  'links.read',
  'links.write',
  'receivables.read',
  'exports',
  'developers.read',
  'developers.write',
  'team.read',
  'team.write',
  'audit.read',
  'settings.write',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * admin: everything. finance: sales, refunds, links, receivables, exports.
 * developer: reads sales; keys, webhooks, events and deliveries.
 * viewer: reads everything but secrets (which no role reads twice: a key or a
 * webhook secret is shown once, at creation), changes nothing.
 */
const GRANTS: Record<Role, readonly Permission[]> = {
  admin: PERMISSIONS,
  finance: ['sales.read', 'sales.refund', 'sales.simulate', 'links.read', 'links.write', 'receivables.read', 'exports'],
  developer: ['sales.read', 'developers.read', 'developers.write'],
  viewer: ['sales.read', 'links.read', 'receivables.read', 'exports', 'developers.read', 'team.read', 'audit.read'],
};

export function may(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

export function permissionsOf(role: Role): readonly Permission[] {
  return GRANTS[role];
}

/**
 * What a role must be allowed in the dashboard to grant each narrow API-key
 * scope: a key does no more than its creator could. Creating charges is the
 * integration's work (developers.write); refunding, links and receivables are
 * what the role already does in the pages. A broad scope (payments:read,
 * payments:write) needs what all its parts need, and payments:write also the
 * sandbox's simulations (sales.simulate), which it alone opens.
 */
const SCOPE_NEEDS: Readonly<Partial<Record<Scope, readonly Permission[]>>> = {
  'charges:read': ['sales.read'],
  'charges:write': ['developers.write'],
  'refunds:write': ['sales.refund'],
  'links:read': ['links.read'],
  'links:write': ['links.write'],
  'receivables:read': ['receivables.read'],
  'webhooks:read': ['developers.read'],
  'webhooks:write': ['developers.write'],
  'payments:write': ['sales.simulate'],
};

/** Whether a member of `role` may give a key `scope` (keys are made with developers.write; admin may grant every scope). */
export function mayGrant(role: Role, scope: Scope): boolean {
  const needs = [...(SCOPE_NEEDS[scope] ?? []), ...(SCOPE_PARTS[scope] ?? []).flatMap((part) => SCOPE_NEEDS[part] ?? [])];
  return needs.every((permission) => may(role, permission));
}

/** The scopes a member of `role` may give the keys they make, in SCOPES's order. */
export function grantableScopes(role: Role): Scope[] {
  return SCOPES.filter((scope) => mayGrant(role, scope));
}

/** Who is acting on a dashboard request: set by the session guard before a route runs. */
export interface Actor {
  userId: string;
  email: string;
  name: string;
  companyId: string;
  role: Role;
  /** The session's id (its hash's key), for audit and sign-out. */
  sessionId: string;
}

