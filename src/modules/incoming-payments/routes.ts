/**
 * Where providers post their notifications. No API key: a provider cannot
 * hold one, and nothing in a notification is trusted (each claim is
 * verified with the provider before it changes anything). A route exists
 * only for a configured connector. Operators restrict these paths to the
 * providers' networks (and, for PSPs, mTLS) at their TLS proxy: see README
 * "Going live".
 */
import type { FastifyInstance } from 'fastify';
import { errors } from '../../http/common-schemas.js';
import { respond } from '../../http/respond.js';
import { NotificationBody, NotificationReceipt } from './schemas.js';
import type { IncomingPayments } from './service.js';

/** Paths per connector. PSPs post to the registered PIX_WEBHOOK_URL with `/pix` appended; some post to it as it is. */
const NOTIFICATION_PATHS: Record<string, string[]> = {
  'bcb-api-pix': ['/v2/provider-notifications/bcb-api-pix/pix', '/v2/provider-notifications/bcb-api-pix'],
  cielo: ['/v2/provider-notifications/cielo'],
};

export function notificationRoutes(app: FastifyInstance, incoming: IncomingPayments): void {
  for (const [name, paths] of Object.entries(NOTIFICATION_PATHS)) {
    const provider = incoming.connector(name);
    if (!provider) continue;
    for (const url of paths) {
      app.post(
        url,
        {
          schema: {
            tags: ['Provider notifications'],
            summary: `Notifications from ${name} (no API key; every claim is verified with the provider)`,
            body: NotificationBody,
            response: { 200: NotificationReceipt, ...errors(400) },
          },
        },
        async (request, reply) => respond(request, reply, await incoming.receive(provider, request.body)),
      );
    }
  }
}
