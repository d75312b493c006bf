/** The dashboard's sales: home, the transactions (search, CSV), a sale, its refund, the sandbox payment. */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { IdParams } from '../../http/common-schemas.js';
import { respond, sendOutcome } from '../../http/respond.js';
import { isDomainError } from '../../lib/domain-error.js';
import { RefundSchema } from '../refunds/index.js';
import { may } from '../users/index.js';
import { actorOf, audited, claimIdempotencyKey, periodFailure } from './http.js';
import { sendExport } from './exports.js';
import { withNextCursor } from '../../lib/paging.js';
import { DASHBOARD_API, type RouteDeps } from './deps.js';
import { RefundBody, TransactionsCsvQuery, TransactionsQuery, type TransactionsFilter } from './schemas.js';

const hide = true;

const searchOf = (q: TransactionsFilter) => ({
  ...(q.status ? { status: q.status } : {}),
  ...(q.paymentMethod ? { paymentMethod: q.paymentMethod } : {}),
  ...(q.paymentLinkId ? { paymentLinkId: q.paymentLinkId } : {}),
  ...(q.from ? { from: q.from } : {}),
  ...(q.to ? { to: q.to } : {}),
  ...(q.q ? { q: q.q } : {}),
});

export function salesRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { guard, services, dashboard, audit, db, config, clock, exports } = deps;

  app.get(`${DASHBOARD_API}/home`, { preHandler: guard('sales.read'), schema: { hide } }, async (request, reply) =>
    sendOutcome(reply, await dashboard.home(actorOf(request).companyId)),
  );

  app.get<{ Querystring: Static<typeof TransactionsQuery> }>(
    `${DASHBOARD_API}/transactions`,
    { preHandler: guard('sales.read'), schema: { hide, querystring: TransactionsQuery } },
    async (request, reply) => {
      const { limit, cursor, ...filter } = request.query;
      const invalid = periodFailure(filter);
      if (invalid) return sendOutcome(reply, invalid);
      const page = await services.transactions.search(actorOf(request).companyId, { ...searchOf(filter), ...(limit ? { limit } : {}), ...(cursor ? { startingAfter: cursor } : {}) });
      return sendOutcome(reply, withNextCursor(page));
    },
  );

  app.get<{ Querystring: Static<typeof TransactionsCsvQuery> }>(
    `${DASHBOARD_API}/transactions.csv`,
    { preHandler: guard('exports'), schema: { hide, querystring: TransactionsCsvQuery } },
    async (request, reply) => {
      const { format = 'excel', lang = 'pt-BR', ...filter } = request.query;
      return sendExport(reply, exports, { what: 'transactions', period: filter, format, language: lang, now: clock.now() }, () =>
        dashboard.transactionsCsv(actorOf(request).companyId, searchOf(filter), format, lang),
      );
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    `${DASHBOARD_API}/transactions/:id`,
    { preHandler: guard('sales.read'), schema: { hide, params: IdParams } },
    async (request, reply) => {
      const actor = actorOf(request);
      return sendOutcome(reply, await dashboard.transaction(actor.companyId, request.params.id, may(actor.role, 'developers.read')));
    },
  );

  // A paid sale's receipt (comprovante) and the address that opens it without a session, to send to the buyer.
  app.get<{ Params: Static<typeof IdParams> }>(
    `${DASHBOARD_API}/transactions/:id/receipt`,
    { preHandler: guard('sales.read'), schema: { hide, params: IdParams } },
    async (request, reply) => sendOutcome(reply, await services.paymentPages.sellerReceipt(actorOf(request).companyId, request.params.id)),
  );

  // The refund of POST /v2/transactions/{id}/refunds, with the same service, rules and Idempotency-Key handling.
  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof RefundBody> }>(
    `${DASHBOARD_API}/transactions/:id/refunds`,
    // `idempotency` marks the route's responses as stored bytes (http/respond.ts); the key is claimed in the handler, after the guard.
    { preHandler: guard('sales.refund'), config: { idempotency: 'required' }, schema: { hide, params: IdParams, body: RefundBody, response: { 201: RefundSchema } } },
    async (request, reply) => {
      if (await claimIdempotencyKey(services.idempotency, request, reply, 201)) return reply;
      const companyId = actorOf(request).companyId;
      const { amount, reason } = request.body;
      const refund = await services.refunds.create(companyId, request.params.id, { amountCents: amount, ...(reason ? { reason } : {}) }, request.idempotency!);
      if (!isDomainError(refund)) await audited(audit, db, request, 'refund.created', refund.id, { transactionId: refund.transactionId, amount: refund.amountCents });
      return respond(request, reply, refund);
    },
  );

  if (config.env === 'sandbox') {
    app.post<{ Params: Static<typeof IdParams> }>(
      `${DASHBOARD_API}/transactions/:id/simulate-payment`,
      { preHandler: guard('sales.simulate'), schema: { hide, params: IdParams } },
      async (request, reply) => sendOutcome(reply, await services.transactions.settleInSandbox(actorOf(request).companyId, request.params.id, 'PAID')),
    );
  }
}
