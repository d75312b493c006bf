/**
 * Where providers post their notifications. No API key: a provider cannot
 * hold one, and nothing in a notification is trusted (each claim is
 * verified with the provider before it changes anything). A route exists
 * only for a configured connector. Operators restrict these paths to the
 * providers' networks (and, for PSPs, mTLS) at their TLS proxy: see README
 * "Going live".
 */
import type { FastifyInstance } from 'fastify';
import { respond } from '../../http/respond.js';
import { NotificationBody, NotificationReceipt } from './schemas.js';
import type { IncomingPayments } from './service.js';

/** Paths per connector. PSPs post to the registered PIX_WEBHOOK_URL with `/pix` appended; some post to it as it is. */
const NOTIFICATION_PATHS: Record<string, { url: string; operationId: string }[]> = {
  'bcb-api-pix': [
    { url: '/v2/provider-notifications/bcb-api-pix/pix', operationId: 'receiveBcbApiPixNotification' },
    { url: '/v2/provider-notifications/bcb-api-pix', operationId: 'receiveBcbApiPixNotificationAtBase' },
  ],
  cielo: [{ url: '/v2/provider-notifications/cielo', operationId: 'receiveCieloNotification' }],
};

export function notificationRoutes(app: FastifyInstance, incoming: IncomingPayments): void {
  for (const [name, paths] of Object.entries(NOTIFICATION_PATHS)) {
    const provider = incoming.connector(name);
    if (!provider) continue;
    for (const { url, operationId } of paths) {
      app.post(
        url,
        {
          schema: {
            operationId,
            tags: ['Provider notifications'],
            summary: `Notifications from ${name} (no API key; every claim is verified with the provider)`,
            body: NotificationBody,
            response: { 200: NotificationReceipt },
          },
        },
        async (request, reply) => respond(request, reply, await incoming.receive(provider, request.body)),
      );
    }
  }
}
