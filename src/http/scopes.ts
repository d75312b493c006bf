/** The scopes an API key may be limited to: a route names the one it needs (its `config.scope`, http/auth.ts). */
export const SCOPES = ['payments:read', 'payments:write', 'webhooks:read', 'webhooks:write'] as const;
export type Scope = (typeof SCOPES)[number];
