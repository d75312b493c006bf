/**
 * The scopes an API key may be limited to: a route names the one it needs
 * (its `config.scope`, http/auth.ts). The contract's four stay what they
 * were; `payments:read` and `payments:write` each also stand for narrower
 * scopes (SCOPE_PARTS) so that a key can create charges without refunding,
 * or read sales without reading receivables: what a key made by a dashboard
 * role may be limited to (users/roles.ts, grantableScopes). It imports
 * nothing, so the pages' bundle (web/dashboard) reads it too.
 */
export const SCOPES = [
  'payments:read',
  'payments:write',
  'webhooks:read',
  'webhooks:write',
  'charges:read',
  'charges:write',
  'refunds:write',
  'links:read',
  'links:write',
  'receivables:read',
] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * The narrower scopes a broad one holds. charges: payment intents (create,
 * confirm, cancel) and reading intents, transactions and refunds; refunds:
 * refunding; links: payment links; receivables: reading receivables. The
 * sandbox routes (simulated payments) need `payments:write` itself.
 */
export const SCOPE_PARTS: Readonly<Partial<Record<Scope, readonly Scope[]>>> = {
  'payments:read': ['charges:read', 'links:read', 'receivables:read'],
  'payments:write': ['charges:write', 'refunds:write', 'links:write'],
};

/** Whether a key holding `held` (null: every scope) may call a route that needs `needed`. */
export function scopeAllows(held: readonly Scope[] | null, needed: Scope): boolean {
  if (held === null) return true;
  return held.some((scope) => scope === needed || (SCOPE_PARTS[scope]?.includes(needed) ?? false));
}
