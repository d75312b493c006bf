/** GET /dashboard/api/audit: the company's audit log, filtered by user and action, paged (`audit.read`). */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { DashboardGuard } from '../users/guard.js';
import { AuditPageSchema, AuditQuerySchema } from './schemas.js';
import type { AuditLog } from './service.js';

export function auditRoutes(app: FastifyInstance, deps: { audit: AuditLog; guard: DashboardGuard }): void {
  app.get<{ Querystring: Static<typeof AuditQuerySchema> }>(
    '/dashboard/api/audit',
    { preHandler: deps.guard('audit.read'), schema: { hide: true, querystring: AuditQuerySchema, response: { 200: AuditPageSchema } } },
    async (request) => deps.audit.list(request.actor!.companyId, request.query),
  );
}
