/** GET /healthz: the process is up. GET /readyz: the database answers (503 when it does not). */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { DomainError } from '../lib/domain-error.js';
import { DATABASE_RETRY_AFTER_SECONDS } from './error-handler.js';
import { respond } from './respond.js';

export function healthRoutes(app: FastifyInstance, db: Db): void {
  app.get('/healthz', { schema: { tags: ['Operation'], summary: 'Liveness', security: [] } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { tags: ['Operation'], summary: 'Readiness: the database answers', security: [] } }, async (request, reply) => {
    const answered = await sql`SELECT 1`.execute(db).then(
      () => true,
      () => false,
    );
    const outcome = answered ? { status: 'ready' } : new DomainError('SERVICE_UNAVAILABLE', 'The database is unreachable', undefined, DATABASE_RETRY_AFTER_SECONDS);
    return respond(request, reply, outcome);
  });
}
