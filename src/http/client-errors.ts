/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a control byte
 * in a header value, an unknown method, a raw space in the path, a malformed
 * request line) reach `clientErrorHandler`, not the error handler. Fastify's
 * default answers them with its own body and no X-Request-Id; this writes the
 * contract's error body, with a fresh request id, on the raw socket, then
 * closes it (the parser cannot resume a broken stream).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../lib/domain-error.js';
import { ERRORS } from '../lib/i18n/messages/errors.js';
import { PROBLEMS } from '../lib/i18n/messages/problems.js';
import { DEFAULT_LANGUAGE } from '../lib/i18n/language.js';
import { statusOf } from './errors.js';

/** What the parser's error codes mean to a client (llhttp's HPE_* codes). */
function describeClientError(code: string | undefined): DomainError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new DomainError('PAYLOAD_TOO_LARGE', ERRORS.PAYLOAD_TOO_LARGE.headers);
    case 'HPE_INVALID_METHOD':
      return new DomainError('VALIDATION_ERROR', ERRORS.VALIDATION_ERROR.method, [{ field: 'method', message: PROBLEMS.method }]);
    case 'HPE_INVALID_URL':
      return new DomainError('VALIDATION_ERROR', ERRORS.VALIDATION_ERROR.path, [{ field: 'path', message: PROBLEMS.url }]);
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_INVALID_HEADER_VALUE':
    case 'HPE_INVALID_HEADER':
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
      return new DomainError('VALIDATION_ERROR', ERRORS.VALIDATION_ERROR.header, [{ field: 'headers', message: PROBLEMS.headerCharacter }]);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new DomainError('VALIDATION_ERROR', ERRORS.VALIDATION_ERROR.notInTime, [{ field: 'request', message: PROBLEMS.notInTime }]);
    default:
      return new DomainError('VALIDATION_ERROR', ERRORS.VALIDATION_ERROR.notHttp, [{ field: 'request', message: PROBLEMS.notHttp }]);
  }
}

export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  // A reset connection has no one left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.debug({ err }, 'client error');
  answerAndClose(socket, describeClientError(err.code));
}

/**
 * CONNECT never reaches Fastify: Node hands it to the server's 'connect'
 * event and, with no listener, closes the socket without a word. The API is
 * no proxy; it answers like any unknown route, in the contract's body.
 */
export function refuseConnect(server: Server): void {
  server.on('connect', (_request: unknown, socket: Socket) => {
    answerAndClose(socket, new DomainError('NOT_FOUND', ERRORS.NOT_FOUND.route));
  });
}

function answerAndClose(socket: Socket, error: DomainError): void {
  const status = statusOf(error);
  // No request was read, so no Accept-Language either: the default language.
  const body = JSON.stringify(error.toBody(DEFAULT_LANGUAGE));
  const requestId = randomUUID();
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  // Closed once the answer is flushed: the parser cannot resume a broken stream.
  socket.once('finish', () => socket.destroy());
  socket.end();
}
