/**
 * What the audit log records. It imports nothing, so the Auditoria page's
 * action filter (web/dashboard) is built from this same list.
 */
export const AUDIT_ACTIONS = [
  'session.signed_in',
  'session.sign_in_failed',
  'session.signed_out',
  'refund.created',
  'api_key.created',
  'api_key.revoked',
  'webhook.created',
  'webhook.deleted',
  'webhook.enabled',
  'payment_link.created',
  'payment_link.canceled',
  'member.invited',
  'invitation.revoked',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'totp.enabled',
  'totp.disabled',
  'password.changed',
  'company.totp_required',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
