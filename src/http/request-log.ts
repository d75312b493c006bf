/**
 * One log line per request, written when the response is sent: method, URL
 * (query values redacted by the `req` serializer, log-serializers.ts), status,
 * time and request id (`reqId`). Fastify's default writes two ("incoming
 * request", then "request completed"), which buries the start banner of
 * `npm start` under noise; its other log lines (errors) are kept.
 *
 * A route may say which of its requests are polls (`config.poll`): a poll
 * answered without error is logged at debug, since a follower such as
 * `svc listen` asks twice a second and would otherwise bury every other line.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Whether the request is one of the repeated reads of a follower (logged at debug when it succeeds). */
    poll?: (request: FastifyRequest) => boolean;
  }
}

class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { req: request, res: { statusCode: reply.statusCode }, responseTime: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (reply.statusCode < 400 && request.routeOptions.config?.poll?.(request)) reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}

/** The `logController` of every Fastify app of the service (the API and the vault). */
export const requestLog = (): LogController => new OneLinePerRequest();
