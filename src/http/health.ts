/** GET /healthz: the process is up. GET /readyz: the database answers (503 when it does not). */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { AppError } from './errors.js';

export function healthRoutes(app: FastifyInstance, db: Db): void {
  app.get('/healthz', { schema: { tags: ['Operation'], summary: 'Liveness', security: [] } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { tags: ['Operation'], summary: 'Readiness: the database answers', security: [] } }, async () => {
    try {
      await sql`SELECT 1`.execute(db);
    } catch {
      throw new AppError('SERVICE_UNAVAILABLE', 'The database is unreachable', undefined, 5);
    }
    return { status: 'ready' };
  });
}
