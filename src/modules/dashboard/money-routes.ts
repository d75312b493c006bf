/** The dashboard's payment links and receivables. */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { IdParams } from '../../http/common-schemas.js';
import { isDomainError } from '../../lib/domain-error.js';
import { CreateLinkBody } from '../payment-links/index.js';
import { qrCodePngBase64 } from '../pix/index.js';
import { actorOf, audited, periodFailure } from './http.js';
import { sendExport } from './exports.js';
import { sendOutcome } from '../../http/respond.js';
import { withNextCursor } from '../../lib/paging.js';
import { DASHBOARD_API, type RouteDeps } from './deps.js';
import { PageOnlyQuery, ReceivablesCsvQuery, ReceivablesQuery, type ReceivablesFilter } from './schemas.js';

const hide = true;
const LinksQuery = PageOnlyQuery('plink');

/** The receivables module's filter from the dashboard's names. */
const receivableFilter = (q: ReceivablesFilter) => ({
  ...(q.status ? { status: q.status } : {}),
  ...(q.recipient ? { recipientDocument: q.recipient } : {}),
  ...(q.from ? { expectedOnFrom: q.from } : {}),
  ...(q.to ? { expectedOnTo: q.to } : {}),
});

export function moneyRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { guard, services, dashboard, audit, db, clock, exports } = deps;

  app.get<{ Querystring: Static<typeof LinksQuery> }>(
    `${DASHBOARD_API}/payment-links`,
    { preHandler: guard('links.read'), schema: { hide, querystring: LinksQuery } },
    async (request, reply) => {
      const { limit, cursor } = request.query;
      const page = await services.paymentLinks.list(actorOf(request).companyId, { ...(limit ? { limit } : {}), ...(cursor ? { startingAfter: cursor } : {}) });
      return sendOutcome(reply, withNextCursor(page));
    },
  );

  // As POST /v2/payment-links, plus `qrCode`: the link's URL as a PNG data URL, for the seller to print or share.
  app.post<{ Body: Static<typeof CreateLinkBody> }>(
    `${DASHBOARD_API}/payment-links`,
    { preHandler: guard('links.write'), schema: { hide, body: CreateLinkBody } },
    async (request, reply) => {
      const link = await services.paymentLinks.create(actorOf(request).companyId, request.body);
      if (isDomainError(link)) return sendOutcome(reply, link);
      await audited(audit, db, request, 'payment_link.created', link.id, { amount: link.amountCents });
      return sendOutcome(reply, { ...link, qrCode: `data:image/png;base64,${qrCodePngBase64(link.url)}` }, 201);
    },
  );

  // One link with its `qrCode`, so a link made earlier is shared from the list as from its creation (QR, copy, WhatsApp).
  app.get<{ Params: Static<typeof IdParams> }>(
    `${DASHBOARD_API}/payment-links/:id`,
    { preHandler: guard('links.read'), schema: { hide, params: IdParams } },
    async (request, reply) => {
      const link = await services.paymentLinks.get(actorOf(request).companyId, request.params.id);
      return sendOutcome(reply, isDomainError(link) ? link : { ...link, qrCode: `data:image/png;base64,${qrCodePngBase64(link.url)}` });
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    `${DASHBOARD_API}/payment-links/:id/cancel`,
    { preHandler: guard('links.write'), schema: { hide, params: IdParams } },
    async (request, reply) => {
      const link = await services.paymentLinks.cancel(actorOf(request).companyId, request.params.id);
      if (!isDomainError(link)) await audited(audit, db, request, 'payment_link.canceled', link.id);
      return sendOutcome(reply, link);
    },
  );

  app.get<{ Querystring: Static<typeof ReceivablesQuery> }>(
    `${DASHBOARD_API}/receivables`,
    { preHandler: guard('receivables.read'), schema: { hide, querystring: ReceivablesQuery } },
    async (request, reply) => {
      const { limit, cursor, ...filter } = request.query;
      const invalid = periodFailure(filter);
      if (invalid) return sendOutcome(reply, invalid);
      const companyId = actorOf(request).companyId;
      const [page, totals] = await Promise.all([
        dashboard.receivables(companyId, { ...receivableFilter(filter), ...(limit ? { limit } : {}), ...(cursor ? { startingAfter: cursor } : {}) }),
        services.receivables.totalsForCompany(companyId, receivableFilter(filter)),
      ]);
      return sendOutcome(reply, { ...withNextCursor(page), totals });
    },
  );

  app.get<{ Querystring: Static<typeof ReceivablesCsvQuery> }>(
    `${DASHBOARD_API}/receivables.csv`,
    { preHandler: guard('exports'), schema: { hide, querystring: ReceivablesCsvQuery } },
    async (request, reply) => {
      const { format = 'excel', lang = 'pt-BR', ...filter } = request.query;
      return sendExport(reply, exports, { what: 'receivables', period: filter, format, language: lang, now: clock.now() }, () =>
        dashboard.receivablesCsv(actorOf(request).companyId, receivableFilter(filter), format, lang),
      );
    },
  );
}
