/** HTTP routes of payment intents: schema → service → response. No SQL, no rules. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { authOf } from '../../http/auth.js';
import { errors, IdParams, IdempotencyHeaders } from '../../http/common-schemas.js';
import { respond } from '../../http/respond.js';
import { claimDeferredKey } from '../idempotency/index.js';
import { TransactionSchema } from '../transactions/index.js';
import { ConfirmBody, CreateIntentBody, IntentSchema } from './schemas.js';
import type { DeferredKey, PaymentIntentService } from './service.js';

/** The route's unclaimed key as the service takes it: claimed as the hook would (a replay sent: undefined). */
function deferredKey(request: FastifyRequest, reply: FastifyReply): DeferredKey | undefined {
  const unclaimed = request.unclaimedKey;
  return unclaimed && { unclaimed, claim: async () => ((await claimDeferredKey(request, reply)) ? undefined : request.idempotency) };
}

export function paymentIntentRoutes(app: FastifyInstance, intents: PaymentIntentService): void {
  app.post<{ Body: Static<typeof CreateIntentBody> }>(
    '/v2/payment-intents',
    {
      // The service stores the response in the statements that do the work when it can, else claims the key first.
      config: { scope: 'charges:write', idempotency: 'optional', claimInHandler: true },
      schema: {
        operationId: 'createPaymentIntent',
        tags: ['Payment intents'],
        summary: 'Create a payment intent (with confirm: true, also confirm it)',
        headers: IdempotencyHeaders,
        body: CreateIntentBody,
        response: { 201: IntentSchema, ...errors('SPLIT_INVALID', 'SPLIT_RECIPIENT_NOT_FOUND', 'PAYMENT_METHOD_UNAVAILABLE', 'PROVIDER_ERROR') },
      },
    },
    async (request, reply) => {
      const outcome = await intents.createIntent(authOf(request).companyId, request.body, deferredKey(request, reply));
      return outcome === undefined ? reply : respond(request, reply, outcome);
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/v2/payment-intents/:id',
    {
      config: { scope: 'charges:read' },
      schema: { operationId: 'getPaymentIntent', tags: ['Payment intents'], summary: 'Get a payment intent', params: IdParams, response: { 200: IntentSchema } },
    },
    async (request, reply) => respond(request, reply, await intents.get(authOf(request).companyId, request.params.id)),
  );

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof ConfirmBody> }>(
    '/v2/payment-intents/:id/confirm',
    {
      // As for a create: the key stored with the work when the service can, else claimed first.
      config: { scope: 'charges:write', idempotency: 'required', claimInHandler: true },
      schema: {
        operationId: 'confirmPaymentIntent',
        tags: ['Payment intents'],
        summary: 'Confirm a payment intent: it becomes a transaction',
        description: 'Idempotency-Key is required. Pix and boleto: no body. Card: {"token": "vtk_…"}.',
        headers: IdempotencyHeaders,
        params: IdParams,
        body: ConfirmBody,
        response: { 201: TransactionSchema, ...errors('TOKEN_REQUIRED', 'INTENT_ALREADY_PROCESSED', 'INTENT_EXPIRED', 'PAYMENT_METHOD_UNAVAILABLE', 'PROVIDER_ERROR') },
      },
    },
    async (request, reply) => {
      const outcome = await intents.confirmIntent(authOf(request).companyId, request.params.id, request.body?.token, deferredKey(request, reply)!);
      return outcome === undefined ? reply : respond(request, reply, outcome);
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    '/v2/payment-intents/:id/cancel',
    {
      config: { scope: 'charges:write', idempotency: 'optional' },
      schema: {
        operationId: 'cancelPaymentIntent',
        tags: ['Payment intents'],
        summary: 'Cancel an unconfirmed payment intent',
        headers: IdempotencyHeaders,
        params: IdParams,
        response: { 200: IntentSchema, ...errors('INTENT_ALREADY_PROCESSED', 'INTENT_EXPIRED') },
      },
    },
    async (request, reply) => respond(request, reply, await intents.cancel(authOf(request).companyId, request.params.id, request.idempotency)),
  );
}
