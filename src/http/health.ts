/** GET /healthz: the process is up. GET /readyz: the database answers (503 when it does not). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { databaseAnswers, type Db } from '../db/database.js';
import { DomainError } from '../lib/domain-error.js';
import { ERRORS } from '../lib/i18n/messages/errors.js';
import { DATABASE_RETRY_AFTER_SECONDS } from './error-handler.js';
import { respond } from './respond.js';

const Status = (status: string, description: string) => Type.Object({ status: Type.Literal(status) }, { description });

export function healthRoutes(app: FastifyInstance, db: Db): void {
  app.get('/healthz', { schema: { operationId: 'getLiveness', tags: ['Health'], summary: 'Liveness', security: [], response: { 200: Status('ok', 'The process is up') } } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { operationId: 'getReadiness', tags: ['Health'], summary: 'Readiness: the database answers', security: [], response: { 200: Status('ready', 'The database answers') } } }, async (request, reply) => {
    const outcome = (await databaseAnswers(db)) ? { status: 'ready' } : new DomainError('SERVICE_UNAVAILABLE', ERRORS.SERVICE_UNAVAILABLE.database, undefined, DATABASE_RETRY_AFTER_SECONDS);
    return respond(request, reply, outcome);
  });
}
