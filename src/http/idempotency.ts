/**
 * The Idempotency-Key header on routes that honour it: claims the key before
 * the handler runs (modules/idempotency keeps the rows and the rules), answers
 * a replay with the stored bytes and `Idempotent-Replayed: true`, and hands
 * the handler's service the scope that stores its outcome.
 */
import type { FastifyInstance } from 'fastify';
import { isDomainError, validationError } from '../lib/domain-error.js';
import { requestFingerprint, type IdempotencyScope, type IdempotencyService } from '../modules/idempotency/index.js';
import { AppError } from './errors.js';
import { successStatus } from './respond.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: IdempotencyScope | undefined;
  }
  interface FastifyContextConfig {
    /** Whether the route honours Idempotency-Key, and whether it demands one. */
    idempotency?: 'optional' | 'required';
  }
}

export function installIdempotency(app: FastifyInstance, idempotency: IdempotencyService): void {
  app.decorateRequest('idempotency', undefined);
  app.addHook('preHandler', async (request, reply) => {
    const mode = request.routeOptions.config?.idempotency;
    if (!mode || !request.auth) return;
    const raw = request.headers['idempotency-key'];
    if (raw === undefined) {
      if (mode === 'required') throw new AppError(validationError('Idempotency-Key', 'is required on this route'));
      return;
    }
    const key = Array.isArray(raw) ? raw[0]! : raw;
    if (key.length < 1 || key.length > 255) throw new AppError(validationError('Idempotency-Key', 'must be 1 to 255 characters'));
    const print = requestFingerprint(request.method, request.routeOptions.url ?? request.url, request.params, request.body);
    const claim = await idempotency.claim(request.auth.companyId, key, print, successStatus(request));
    if (isDomainError(claim)) throw new AppError(claim);
    if (claim.kind === 'replay') {
      return reply.code(claim.status).header('Idempotent-Replayed', 'true').type('application/json; charset=utf-8').send(claim.body);
    }
    request.idempotency = claim.scope;
  });
}
