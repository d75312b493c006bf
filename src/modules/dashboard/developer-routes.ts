/**
 * The dashboard's developer pages: API keys, webhooks and their deliveries,
 * the event log. A key made here holds at most what its creator's role may
 * grant (users/roles.ts, grantableScopes; above that, 403 FORBIDDEN naming
 * `scopes`, nothing made); keys and webhooks made here keep who made them
 * (`createdBy`, shown by name), which a member's removal revokes or keeps.
 */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { IdParams } from '../../http/common-schemas.js';
import { isDomainError, notFound } from '../../lib/domain-error.js';
import { isId } from '../../lib/ids.js';
import { shownKeyPrefix, type KeyRecord } from '../companies/index.js';
import { grantableScopes, may } from '../users/index.js';
import { shownWebhookUrl } from '../webhooks/index.js';
import { CreateWebhookBody } from '../webhooks/schemas.js';
import * as repo from './repo.js';
import { actorOf, audited } from './http.js';
import { sendOutcome } from '../../http/respond.js';
import { withNextCursor } from '../../lib/paging.js';
import { DASHBOARD_API, type RouteDeps } from './deps.js';
import { CreateKeyBody, EventsQuery, PageOnlyQuery } from './schemas.js';

const hide = true;
const DeliveriesQuery = PageOnlyQuery('dlv');

/**
 * A key as the pages list it. Only the key's last four characters are
 * stored (its SHA-256 is what authenticates), so `prefix` is the
 * environment's prefix and those four: enough to tell keys apart, nothing to use.
 */
function keyView(k: KeyRecord, createdBy: Creator | null = null) {
  return { id: k.id, name: k.name, prefix: shownKeyPrefix(k.environment, k.hint), scopes: k.scopes, createdAt: k.createdAt, lastUsedAt: k.lastUsedAt, revokedAt: k.revokedAt, createdBy };
}

/** Who made a key or a webhook in the dashboard, as the page names them. */
interface Creator {
  userId: string;
  name: string;
  email: string;
}

/** The creators of these rows by user id (null: the operator's or the API's). */
async function creators(db: RouteDeps['db'], ids: (string | null)[]): Promise<(id: string | null) => Creator | null> {
  const found = await repo.people(db, ids.filter((id): id is string => id !== null));
  return (id) => {
    const person = id ? found.get(id) : undefined;
    return id && person ? { userId: id, ...person } : null;
  };
}

export function developerRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { guard, services, dashboard, audit, db } = deps;

  app.get(`${DASHBOARD_API}/api-keys`, { preHandler: guard('developers.read'), schema: { hide } }, async (request, reply) => {
    const keys = await services.companies.listKeys(actorOf(request).companyId);
    if (isDomainError(keys)) return sendOutcome(reply, keys);
    const by = await creators(db, keys.map((k) => k.createdBy));
    return sendOutcome(reply, { data: keys.map((k) => keyView(k, by(k.createdBy))) });
  });

  app.post<{ Body: Static<typeof CreateKeyBody> }>(
    `${DASHBOARD_API}/api-keys`,
    { preHandler: guard('developers.write'), schema: { hide, body: CreateKeyBody } },
    async (request, reply) => {
      const actor = actorOf(request);
      const by = { userId: actor.userId, grantable: grantableScopes(actor.role) };
      const issued = await services.companies.issueKey(actor.companyId, request.body.scopes, request.body.name, by);
      if (isDomainError(issued)) return sendOutcome(reply, issued);
      await audited(audit, db, request, 'api_key.created', issued.id, { name: request.body.name });
      // The only time the key is shown: it is not stored.
      return sendOutcome(reply, { ...keyView(issued, { userId: actor.userId, name: actor.name, email: actor.email }), key: issued.key }, 201);
    },
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    `${DASHBOARD_API}/api-keys/:id`,
    { preHandler: guard('developers.write'), schema: { hide, params: IdParams } },
    async (request, reply) => {
      const { id } = request.params;
      if (!isId('key', id)) return sendOutcome(reply, notFound('apiKey'));
      const revoked = await services.companies.revokeKey(id, actorOf(request).companyId);
      if (isDomainError(revoked)) return sendOutcome(reply, notFound('apiKey'));
      await audited(audit, db, request, 'api_key.revoked', id);
      return sendOutcome(reply, keyView(revoked));
    },
  );

  // Who may change webhooks (developers.write) sees their whole URLs; a reader, without the query (it may hold a secret).
  app.get(`${DASHBOARD_API}/webhooks`, { preHandler: guard('developers.read'), schema: { hide } }, async (request, reply) => {
    const actor = actorOf(request);
    const { data } = await services.webhooks.listWithCreator(actor.companyId);
    const by = await creators(db, data.map((w) => w.createdBy));
    const whole = may(actor.role, 'developers.write');
    return sendOutcome(reply, { data: data.map((w) => ({ ...w, url: whole ? w.url : shownWebhookUrl(w.url, true), createdBy: by(w.createdBy) })) });
  });

  app.post<{ Body: Static<typeof CreateWebhookBody> }>(
    `${DASHBOARD_API}/webhooks`,
    { preHandler: guard('developers.write'), schema: { hide, body: CreateWebhookBody } },
    async (request, reply) => {
      // The answer holds the whsec_ secret: the only time it is shown (the list never has it).
      const actor = actorOf(request);
      const created = await services.webhooks.create(actor.companyId, request.body, undefined, actor.userId);
      if (!isDomainError(created)) await audited(audit, db, request, 'webhook.created', created.id);
      return sendOutcome(reply, created, 201);
    },
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    `${DASHBOARD_API}/webhooks/:id`,
    { preHandler: guard('developers.write'), schema: { hide, params: IdParams } },
    async (request, reply) => {
      const removed = await services.webhooks.remove(actorOf(request).companyId, request.params.id);
      if (!isDomainError(removed)) await audited(audit, db, request, 'webhook.deleted', request.params.id);
      return sendOutcome(reply, removed, 204);
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    `${DASHBOARD_API}/webhooks/:id/enable`,
    { preHandler: guard('developers.write'), schema: { hide, params: IdParams } },
    async (request, reply) => {
      // A webhook disabled after WEBHOOK_DISABLE_AFTER of failures: what waited for it is sent at once.
      const enabled = await services.webhooks.enable(actorOf(request).companyId, request.params.id);
      if (!isDomainError(enabled)) await audited(audit, db, request, 'webhook.enabled', request.params.id);
      return sendOutcome(reply, enabled);
    },
  );

  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof DeliveriesQuery> }>(
    `${DASHBOARD_API}/webhooks/:id/deliveries`,
    { preHandler: guard('developers.read'), schema: { hide, params: IdParams, querystring: DeliveriesQuery } },
    async (request, reply) => {
      const { limit, cursor } = request.query;
      const page = await services.webhooks.deliveries(actorOf(request).companyId, request.params.id, { ...(limit ? { limit } : {}), ...(cursor ? { startingAfter: cursor } : {}) });
      return sendOutcome(reply, isDomainError(page) ? page : withNextCursor(page));
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    `${DASHBOARD_API}/webhooks/:id/test`,
    { preHandler: guard('developers.write'), schema: { hide, params: IdParams } },
    async (request, reply) => sendOutcome(reply, await dashboard.testWebhook(actorOf(request).companyId, request.params.id), 202),
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    `${DASHBOARD_API}/deliveries/:id/resend`,
    { preHandler: guard('developers.write'), schema: { hide, params: IdParams } },
    async (request, reply) => sendOutcome(reply, await dashboard.resendDelivery(actorOf(request).companyId, request.params.id), 202),
  );

  app.get<{ Querystring: Static<typeof EventsQuery> }>(
    `${DASHBOARD_API}/events`,
    { preHandler: guard('developers.read'), schema: { hide, querystring: EventsQuery } },
    async (request, reply) => {
      const { limit, cursor, type } = request.query;
      const text = await services.events.list(actorOf(request).companyId, { ...(limit ? { limit } : {}), ...(cursor ? { startingAfter: cursor } : {}), ...(type ? { type } : {}) });
      if (isDomainError(text)) return sendOutcome(reply, text);
      // The stored bodies as delivered, in the page the pages read (a page of at most 100 events is parsed once).
      return sendOutcome(reply, withNextCursor(JSON.parse(text) as { data: { id: string }[]; hasMore: boolean }));
    },
  );
}
