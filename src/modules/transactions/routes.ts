/** HTTP routes of transactions, and the sandbox pay and fail routes. */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { authOf } from '../../http/auth.js';
import { errors, IdParams, IdempotencyHeaders, listEnvelope } from '../../http/common-schemas.js';
import { respond } from '../../http/respond.js';
import { TransactionListQuery, TransactionSchema } from './schemas.js';
import type { TransactionService } from './service.js';

export function transactionRoutes(app: FastifyInstance, transactions: TransactionService): void {
  app.get<{ Querystring: Static<typeof TransactionListQuery> }>(
    '/v2/transactions',
    {
      config: { scope: 'charges:read' },
      schema: {
        operationId: 'listTransactions',
        tags: ['Transactions'],
        summary: 'List transactions, newest first',
        querystring: TransactionListQuery,
        response: { 200: listEnvelope(TransactionSchema) },
      },
    },
    async (request, reply) => respond(request, reply, await transactions.list(authOf(request).companyId, request.query)),
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/v2/transactions/:id',
    {
      config: { scope: 'charges:read' },
      schema: { operationId: 'getTransaction', tags: ['Transactions'], summary: 'Get a transaction', params: IdParams, response: { 200: TransactionSchema } },
    },
    async (request, reply) => respond(request, reply, await transactions.get(authOf(request).companyId, request.params.id)),
  );
}

export function sandboxTransactionRoutes(app: FastifyInstance, transactions: TransactionService): void {
  const moves = [
    ['pay', 'PAID', 'payTransactionInSandbox', 'Sandbox: mark a PENDING transaction PAID (again on a PAID one: unchanged, no second event)'],
    ['fail', 'CANCELED', 'failTransactionInSandbox', 'Sandbox: cancel a PENDING transaction (emits transaction.canceled)'],
  ] as const;
  for (const [action, to, operationId, summary] of moves) {
    app.post<{ Params: Static<typeof IdParams> }>(
      `/v2/sandbox/transactions/:id/${action}`,
      {
        config: { scope: 'payments:write', idempotency: 'optional' },
        schema: { operationId, tags: ['Sandbox'], summary, headers: IdempotencyHeaders, params: IdParams, response: { 200: TransactionSchema, ...errors('TRANSACTION_NOT_PENDING') } },
      },
      async (request, reply) => {
        const view = await transactions.settleInSandbox(authOf(request).companyId, request.params.id, to, request.idempotency);
        return respond(request, reply, view);
      },
    );
  }
  app.post<{ Params: Static<typeof IdParams> }>(
    '/v2/sandbox/transactions/:id/settle',
    {
      config: { scope: 'payments:write', idempotency: 'optional' },
      schema: {
        operationId: 'settleTransactionInSandbox',
        tags: ['Sandbox'],
        summary: "Sandbox: pay all of a PAID transaction's receivables now",
        headers: IdempotencyHeaders,
        params: IdParams,
        response: { 200: TransactionSchema, ...errors('TRANSACTION_NOT_PENDING') },
      },
    },
    async (request, reply) => {
      const view = await transactions.settleReceivablesInSandbox(authOf(request).companyId, request.params.id, request.idempotency);
      return respond(request, reply, view);
    },
  );
}
