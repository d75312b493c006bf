/** HTTP routes of webhook registrations and their delivery log (the event log is modules/events). */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { authOf } from '../../http/auth.js';
import { errors, IdParams, IdempotencyHeaders, listEnvelope, PageQuery } from '../../http/common-schemas.js';
import { respond } from '../../http/respond.js';
import { CreatedWebhookSchema, CreateWebhookBody, DeliverySchema, WebhookListSchema, WebhookSchema } from './schemas.js';
import type { WebhookService } from './service.js';

export function webhookRoutes(app: FastifyInstance, webhooks: WebhookService): void {
  app.post<{ Body: Static<typeof CreateWebhookBody> }>(
    '/v2/webhooks',
    {
      config: { scope: 'webhooks:write', idempotency: 'optional' },
      schema: {
        operationId: 'createWebhook',
        tags: ['Webhooks'],
        summary: 'Register a webhook URL (the secret is shown only in this response)',
        headers: IdempotencyHeaders,
        body: CreateWebhookBody,
        response: { 201: CreatedWebhookSchema, ...errors('WEBHOOK_URL_INVALID', 'WEBHOOK_LIMIT_REACHED') },
      },
    },
    async (request, reply) => respond(request, reply, await webhooks.create(authOf(request).companyId, request.body, request.idempotency)),
  );

  app.get(
    '/v2/webhooks',
    {
      config: { scope: 'webhooks:read' },
      schema: { operationId: 'listWebhooks', tags: ['Webhooks'], summary: 'List active webhook registrations', response: { 200: WebhookListSchema } },
    },
    async (request, reply) => respond(request, reply, await webhooks.list(authOf(request).companyId)),
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/v2/webhooks/:id',
    {
      config: { scope: 'webhooks:read' },
      schema: { operationId: 'getWebhook', tags: ['Webhooks'], summary: 'Get a webhook registration', params: IdParams, response: { 200: WebhookSchema } },
    },
    async (request, reply) => respond(request, reply, await webhooks.get(authOf(request).companyId, request.params.id)),
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/v2/webhooks/:id',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        operationId: 'deleteWebhook',
        tags: ['Webhooks'],
        summary: 'Delete a webhook registration (its pending deliveries stop)',
        params: IdParams,
        response: { 204: Type.Null({ description: 'the registration is deleted (no body)' }) },
      },
    },
    async (request, reply) => respond(request, reply, await webhooks.remove(authOf(request).companyId, request.params.id)),
  );

  // An action on the registration, as cancel is on an intent: POST, no body, 200 with the registration, safe to repeat.
  app.post<{ Params: Static<typeof IdParams> }>(
    '/v2/webhooks/:id/enable',
    {
      config: { scope: 'webhooks:write', idempotency: 'optional' },
      schema: {
        operationId: 'enableWebhook',
        tags: ['Webhooks'],
        summary: 'Enable a disabled webhook registration again (what waited for it is sent at once)',
        headers: IdempotencyHeaders,
        params: IdParams,
        response: { 200: WebhookSchema },
      },
    },
    async (request, reply) => respond(request, reply, await webhooks.enable(authOf(request).companyId, request.params.id, request.idempotency)),
  );

  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof PageQuery> }>(
    '/v2/webhooks/:id/deliveries',
    {
      config: { scope: 'webhooks:read' },
      schema: {
        operationId: 'listWebhookDeliveries',
        tags: ['Webhooks'],
        summary: 'Every delivery to a registration, newest first, with its attempts',
        params: IdParams,
        querystring: PageQuery,
        response: { 200: listEnvelope(DeliverySchema) },
      },
    },
    async (request, reply) => respond(request, reply, await webhooks.deliveries(authOf(request).companyId, request.params.id, request.query)),
  );
}
