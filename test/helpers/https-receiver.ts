/**
 * A local HTTPS webhook receiver for end-to-end tests: listens on 127.0.0.1
 * with a self-signed certificate made by `openssl` at test time
 * (test-ca.ts: in a temp folder removed by close(); keys are never committed), records every
 * request's headers and raw body bytes, and answers as the test programs it:
 * a status per call, a delay, or hanging until released.
 *
 * The service trusts the certificate through NODE_EXTRA_CA_CERTS=<certFile>
 * (Node's TLS adds it to the default trust store) and may target the loopback
 * address only with WEBHOOK_ALLOW_LOOPBACK=true.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSelfSignedCert, type SelfSignedCert } from './test-ca.js';

export interface ReceivedRequest {
  /** 1-based arrival number. */
  n: number;
  method: string;
  /** Path and query, as sent. */
  path: string;
  /** Lower-cased header names (Node's IncomingMessage.headers). */
  headers: IncomingHttpHeaders;
  /** The body bytes exactly as received. */
  body: Buffer;
  /** Date.now() when the whole body had arrived. */
  receivedAt: number;
  /** The client's port, and a number per TLS connection (1-based), to tell connections apart. */
  remotePort: number;
  connection: number;
  /** pending (delayed or hanging), answered, or aborted (the client went away first). */
  state: 'pending' | 'answered' | 'aborted';
  /** The status sent, once answered. */
  status?: number;
  /** Date.now() when the client connection closed before an answer. */
  abortedAt?: number;
}

/** How to answer one request: `status` (default 200) after `delayMs` (default 0), or hang until release(). */
interface Answer {
  status?: number;
  delayMs?: number;
  hang?: boolean;
  body?: string;
}

type Script = (request: ReceivedRequest) => Answer | undefined | void;

export interface HttpsReceiver {
  /** `https://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  port: number;
  cert: SelfSignedCert;
  /** Every request so far, in arrival order. */
  requests: ReceivedRequest[];
  /** Sets the default answer of every later request (initially 200 at once). */
  script(fn: Script): void;
  /** Answers for the next calls, in order; each is used once, before the script applies. */
  queue(...answers: Answer[]): void;
  /** Answers every request still hanging with `status` (default 200); returns how many were answered. */
  release(status?: number): number;
  /** Polls until `count` requests (that pass `filter`) have arrived; rejects after `timeoutMs`. */
  waitForRequests(count: number, opts?: { timeoutMs?: number; filter?: (r: ReceivedRequest) => boolean }): Promise<ReceivedRequest[]>;
  /** Closes the server and every connection, and removes the certificate (when the receiver made it). */
  close(): Promise<void>;
}


export async function startHttpsReceiver(opts: { cert?: SelfSignedCert } = {}): Promise<HttpsReceiver> {
  const cert = opts.cert ?? (await createSelfSignedCert());
  const ownsCert = opts.cert === undefined;
  const requests: ReceivedRequest[] = [];
  const queued: Answer[] = [];
  let script: Script = () => undefined;
  const hanging = new Map<ReceivedRequest, ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const connectionIds = new WeakMap<Socket, number>();
  let connections = 0;

  const finish = (record: ReceivedRequest, res: ServerResponse, answer: Answer) => {
    hanging.delete(record);
    if (record.state !== 'pending' || res.destroyed) return;
    record.state = 'answered';
    record.status = answer.status ?? 200;
    const body = answer.body ?? '';
    res.writeHead(record.status, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };

  const server = https.createServer({ cert: cert.cert, key: cert.key }, (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const socket = req.socket;
      const record: ReceivedRequest = {
        n: requests.length + 1,
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        receivedAt: Date.now(),
        remotePort: socket.remotePort ?? 0,
        connection: connectionIds.get(socket) ?? 0,
        state: 'pending',
      };
      requests.push(record);
      res.on('close', () => {
        if (record.state === 'pending') {
          record.state = 'aborted';
          record.abortedAt = Date.now();
          hanging.delete(record);
        }
      });
      let answer: Answer;
      try {
        answer = queued.shift() ?? script(record) ?? {};
      } catch {
        answer = { status: 500 };
      }
      if (answer.hang) {
        hanging.set(record, res);
      } else if (answer.delayMs && answer.delayMs > 0) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          finish(record, res, answer);
        }, answer.delayMs);
        timers.add(timer);
      } else {
        finish(record, res, answer);
      }
    });
  });
  server.on('secureConnection', (socket) => connectionIds.set(socket, ++connections));
  // A client killed mid-handshake must not crash the test process.
  server.on('tlsClientError', () => {});

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `https://127.0.0.1:${port}`,
    port,
    cert,
    requests,
    script(fn) {
      script = fn;
    },
    queue(...answers) {
      queued.push(...answers);
    },
    release(status = 200) {
      const open = [...hanging.entries()];
      for (const [record, res] of open) finish(record, res, { status });
      return open.length;
    },
    async waitForRequests(count, waitOpts = {}) {
      const timeoutMs = waitOpts.timeoutMs ?? 10_000;
      const filter = waitOpts.filter ?? (() => true);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = requests.filter(filter);
        if (matching.length >= count) return matching;
        if (Date.now() >= deadline) {
          throw new Error(`the receiver got ${matching.length} of ${count} expected requests within ${timeoutMs} ms`);
        }
        await sleep(25);
      }
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      hanging.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      if (ownsCert) cert.remove();
    },
  };
}
