/**
 * The dashboard's roles and what each may do: the one table every dashboard
 * route checks on the server (the pages only hide what a role cannot use).
 * It imports nothing, so the pages' bundle (web/dashboard) reads it too.
 */
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

