/** HTTP routes of payment links, the seller's side: schema → service → response. */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { authOf } from '../../http/auth.js';
import { errors, IdParams, IdempotencyHeaders, listEnvelope } from '../../http/common-schemas.js';
import { respond } from '../../http/respond.js';
import { CreateLinkBody, LinkListQuery, LinkSchema } from './schemas.js';
import type { PaymentLinkService } from './service.js';

const TAGS = ['Payment links'];

export function paymentLinkRoutes(app: FastifyInstance, links: PaymentLinkService): void {
  app.post<{ Body: Static<typeof CreateLinkBody> }>(
    '/v2/payment-links',
    {
      config: { scope: 'links:write', idempotency: 'optional' },
      schema: {
        operationId: 'createPaymentLink',
        tags: TAGS,
        summary: 'Create a payment link: a hosted page (its `url`) where buyers pay',
        headers: IdempotencyHeaders,
        body: CreateLinkBody,
        response: { 201: LinkSchema, ...errors('SPLIT_INVALID', 'SPLIT_RECIPIENT_NOT_FOUND') },
      },
    },
    async (request, reply) => respond(request, reply, await links.create(authOf(request).companyId, request.body, request.idempotency)),
  );

  app.get<{ Querystring: Static<typeof LinkListQuery> }>(
    '/v2/payment-links',
    {
      config: { scope: 'links:read' },
      schema: {
        operationId: 'listPaymentLinks',
        tags: TAGS,
        summary: 'List payment links, newest first',
        querystring: LinkListQuery,
        response: { 200: listEnvelope(LinkSchema) },
      },
    },
    async (request, reply) => respond(request, reply, await links.list(authOf(request).companyId, request.query)),
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/v2/payment-links/:id',
    {
      config: { scope: 'links:read' },
      schema: { operationId: 'getPaymentLink', tags: TAGS, summary: 'Get a payment link', params: IdParams, response: { 200: LinkSchema } },
    },
    async (request, reply) => respond(request, reply, await links.get(authOf(request).companyId, request.params.id)),
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    '/v2/payment-links/:id/cancel',
    {
      config: { scope: 'links:write', idempotency: 'optional' },
      schema: {
        operationId: 'cancelPaymentLink',
        tags: TAGS,
        summary: 'Cancel a payment link: its page takes no more payments',
        headers: IdempotencyHeaders,
        params: IdParams,
        response: { 200: LinkSchema },
      },
    },
    async (request, reply) => respond(request, reply, await links.cancel(authOf(request).companyId, request.params.id, request.idempotency)),
  );
}
