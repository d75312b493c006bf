/** GET /v2/receivables: the seller's receivables across transactions, for reconciliation. */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { authOf } from '../../http/auth.js';
import { listEnvelope } from '../../http/common-schemas.js';
import { respond } from '../../http/respond.js';
import { ReceivableListItem, ReceivableListQuery } from './schemas.js';
import type { ReceivableService } from './service.js';

export function receivableRoutes(app: FastifyInstance, receivables: ReceivableService): void {
  app.get<{ Querystring: Static<typeof ReceivableListQuery> }>(
    '/v2/receivables',
    {
      config: { scope: 'receivables:read' },
      schema: {
        operationId: 'listReceivables',
        tags: ['Receivables'],
        summary: 'List receivables, newest first',
        description: 'Filter by status, recipientDocument and expected date range (YYYY-MM-DD, São Paulo calendar).',
        querystring: ReceivableListQuery,
        response: { 200: listEnvelope(ReceivableListItem) },
      },
    },
    async (request, reply) => respond(request, reply, await receivables.listForCompany(authOf(request).companyId, request.query)),
  );
}
