export { AUDIT_ACTIONS, type AuditAction, type AuditEntry, type AuditRecorder } from './entry.js';
export { AuditLog, AUDIT_RETENTION_MS, type AuditPage, type AuditView } from './service.js';
export { auditRoutes } from './routes.js';
