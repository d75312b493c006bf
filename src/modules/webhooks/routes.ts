/** HTTP routes of webhook registrations, their delivery log, and the event log. */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { authOf } from '../../http/auth.js';
import { errors, IdParams, IdempotencyHeaders, listEnvelope } from '../../http/common-schemas.js';
import { respond } from '../../http/respond.js';
import type { EventService } from '../events/index.js';
import {
  CreatedWebhookSchema,
  CreateWebhookBody,
  DeliveryAttemptSchema,
  EventListQuery,
  EventSchema,
  PageQuery,
  ResendBody,
  ResendResponse,
  WebhookSchema,
} from './schemas.js';
import type { WebhookService } from './service.js';
import { Type } from 'typebox';

const JSON_TYPE = 'application/json; charset=utf-8';

export function webhookRoutes(app: FastifyInstance, webhooks: WebhookService, events: EventService): void {
  app.post<{ Body: Static<typeof CreateWebhookBody> }>(
    '/v2/webhooks',
    {
      config: { scope: 'webhooks:write', idempotency: 'optional' },
      schema: {
        tags: ['Webhooks'],
        summary: 'Register a webhook URL (the secret is shown only in this response)',
        headers: IdempotencyHeaders,
        body: CreateWebhookBody,
        response: { 201: CreatedWebhookSchema, ...errors(400, 403, 409, 422) },
      },
    },
    async (request, reply) => respond(request, reply, await webhooks.create(authOf(request).companyId, request.body, request.idempotency)),
  );

  app.get(
    '/v2/webhooks',
    {
      config: { scope: 'webhooks:read' },
      schema: { tags: ['Webhooks'], summary: 'List active webhook registrations', response: { 200: Type.Object({ data: Type.Array(WebhookSchema) }), ...errors(403) } },
    },
    async (request) => webhooks.list(authOf(request).companyId),
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/v2/webhooks/:id',
    {
      config: { scope: 'webhooks:read' },
      schema: { tags: ['Webhooks'], summary: 'Get a webhook registration', params: IdParams, response: { 200: WebhookSchema, ...errors(400, 403, 404) } },
    },
    async (request) => webhooks.get(authOf(request).companyId, request.params.id),
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/v2/webhooks/:id',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        tags: ['Webhooks'],
        summary: 'Delete a webhook registration (its pending deliveries stop)',
        params: IdParams,
        response: { 204: Type.Null({ description: 'No body' }), ...errors(400, 403, 404) },
      },
    },
    async (request, reply) => {
      await webhooks.remove(authOf(request).companyId, request.params.id);
      return reply.code(204).send();
    },
  );

  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof PageQuery> }>(
    '/v2/webhooks/:id/deliveries',
    {
      config: { scope: 'webhooks:read' },
      schema: {
        tags: ['Webhooks'],
        summary: 'Every delivery attempt to a registration, newest first',
        params: IdParams,
        querystring: PageQuery,
        response: { 200: listEnvelope(DeliveryAttemptSchema), ...errors(400, 403, 404) },
      },
    },
    async (request) => webhooks.attempts(authOf(request).companyId, request.params.id, request.query),
  );

  app.get<{ Querystring: Static<typeof EventListQuery> }>(
    '/v2/events',
    {
      config: { scope: 'webhooks:read' },
      schema: { tags: ['Events'], summary: 'List events, newest first', querystring: EventListQuery, response: { 200: listEnvelope(EventSchema), ...errors(400, 403) } },
    },
    async (request, reply) => reply.type(JSON_TYPE).send(await events.list(authOf(request).companyId, request.query)),
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/v2/events/:id',
    {
      config: { scope: 'webhooks:read' },
      schema: { tags: ['Events'], summary: 'Get an event exactly as delivered', params: IdParams, response: { 200: EventSchema, ...errors(400, 403, 404) } },
    },
    async (request, reply) => reply.type(JSON_TYPE).send(await events.get(authOf(request).companyId, request.params.id)),
  );

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof ResendBody> }>(
    '/v2/events/:id/resend',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        tags: ['Events'],
        summary: 'Deliver an event again (same id and body, new timestamp and signature)',
        description: 'Body {"webhookId": "whk_…"} sends to one registration; without it, to every active registration that selected the type.',
        params: IdParams,
        body: ResendBody,
        response: { 202: ResendResponse, ...errors(400, 403, 404) },
      },
    },
    async (request, reply) => reply.code(202).send(await events.resend(authOf(request).companyId, request.params.id, request.body?.webhookId)),
  );
}
