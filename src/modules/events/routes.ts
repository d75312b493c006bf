/** HTTP routes of the event log: list, get, resend. Bodies are sent as the exact stored text. */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { authOf } from '../../http/auth.js';
import { IdParams, listEnvelope } from '../../http/common-schemas.js';
import { respond } from '../../http/respond.js';
import { EventListQuery, EventSchema, ResendBody, ResendResponse } from './schemas.js';
import type { EventService } from './service.js';

const JSON_TYPE = 'application/json; charset=utf-8';

export function eventRoutes(app: FastifyInstance, events: EventService): void {
  app.get<{ Querystring: Static<typeof EventListQuery> }>(
    '/v2/events',
    {
      // A follower (svc listen) asks for what came `after` its cursor twice a second: those reads are polls.
      config: { scope: 'webhooks:read', poll: (request) => (request.query as Static<typeof EventListQuery>).after !== undefined },
      schema: { operationId: 'listEvents', tags: ['Events'], summary: 'List events, newest first (with after: the later ones, oldest first)', querystring: EventListQuery, response: { 200: listEnvelope(EventSchema) } },
    },
    async (request, reply) => respond(request, reply.type(JSON_TYPE), await events.list(authOf(request).companyId, request.query)),
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/v2/events/:id',
    {
      config: { scope: 'webhooks:read' },
      schema: { operationId: 'getEvent', tags: ['Events'], summary: 'Get an event exactly as delivered', params: IdParams, response: { 200: EventSchema } },
    },
    async (request, reply) => respond(request, reply.type(JSON_TYPE), await events.get(authOf(request).companyId, request.params.id)),
  );

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof ResendBody> }>(
    '/v2/events/:id/resend',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        operationId: 'resendEvent',
        tags: ['Events'],
        summary: 'Deliver an event again (same id and body, new timestamp and signature)',
        description: 'Body {"webhookId": "whk_…"} sends to one registration; without it, to every active registration that selected the type.',
        params: IdParams,
        body: ResendBody,
        response: { 202: ResendResponse },
      },
    },
    async (request, reply) => respond(request, reply, await events.resend(authOf(request).companyId, request.params.id, request.body?.webhookId)),
  );
}
