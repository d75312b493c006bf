/** HTTP routes of refunds, and the sandbox chargeback. */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { authOf } from '../../http/auth.js';
import { errors, IdParams, IdempotencyHeaders, listEnvelope } from '../../http/common-schemas.js';
import { respond } from '../../http/respond.js';
import { TransactionSchema } from '../transactions/index.js';
import { CreateRefundBody, RefundListQuery, RefundSchema } from './schemas.js';
import type { RefundService } from './service.js';

export function refundRoutes(app: FastifyInstance, refunds: RefundService): void {
  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof CreateRefundBody> }>(
    '/v2/transactions/:id/refunds',
    {
      config: { scope: 'refunds:write', idempotency: 'required' },
      schema: {
        operationId: 'createRefund',
        tags: ['Refunds'],
        summary: 'Refund all or part of a PAID transaction',
        description:
          'Idempotency-Key is required. `amountCents` absent: all that is left to refund. Card: a void of that amount at the acquirer; ' +
          'Pix: a devolução at the PSP, asynchronous (the refund stays PENDING until the PSP settles it). A boleto cannot be refunded (409 TRANSACTION_NOT_REFUNDABLE).',
        headers: IdempotencyHeaders,
        params: IdParams,
        body: CreateRefundBody,
        response: { 201: RefundSchema, ...errors('TRANSACTION_NOT_REFUNDABLE', 'REFUND_EXCEEDS_AVAILABLE', 'REFUND_IN_PROGRESS', 'PROVIDER_ERROR') },
      },
    },
    async (request, reply) => {
      const refund = await refunds.create(authOf(request).companyId, request.params.id, request.body, request.idempotency!);
      return respond(request, reply, refund);
    },
  );

  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof RefundListQuery> }>(
    '/v2/transactions/:id/refunds',
    {
      config: { scope: 'charges:read' },
      schema: {
        operationId: 'listTransactionRefunds',
        tags: ['Refunds'],
        summary: "List a transaction's refunds, newest first",
        params: IdParams,
        querystring: RefundListQuery,
        response: { 200: listEnvelope(RefundSchema) },
      },
    },
    async (request, reply) => respond(request, reply, await refunds.listOfTransaction(authOf(request).companyId, request.params.id, request.query)),
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/v2/refunds/:id',
    {
      config: { scope: 'charges:read' },
      schema: { operationId: 'getRefund', tags: ['Refunds'], summary: 'Get a refund', params: IdParams, response: { 200: RefundSchema } },
    },
    async (request, reply) => respond(request, reply, await refunds.get(authOf(request).companyId, request.params.id)),
  );
}

export function sandboxRefundRoutes(app: FastifyInstance, refunds: RefundService): void {
  app.post<{ Params: Static<typeof IdParams> }>(
    '/v2/sandbox/transactions/:id/chargeback',
    {
      config: { scope: 'payments:write', idempotency: 'optional' },
      schema: {
        operationId: 'chargeBackTransactionInSandbox',
        tags: ['Sandbox'],
        summary: 'Sandbox: a chargeback of a PAID card transaction (CANCELED, transaction.canceled, receivables reversed)',
        headers: IdempotencyHeaders,
        params: IdParams,
        response: { 200: TransactionSchema, ...errors('TRANSACTION_NOT_REFUNDABLE') },
      },
    },
    async (request, reply) => respond(request, reply, await refunds.chargebackInSandbox(authOf(request).companyId, request.params.id, request.idempotency)),
  );
}
