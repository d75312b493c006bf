/**
 * A TCP proxy the test controls, between the service and its PostgreSQL:
 *  - pass-through (the start, and after heal());
 *  - cut(): every open connection is reset, and new ones are refused until heal();
 *  - stall(): a silent network: no byte goes either way and no connection is
 *    closed (not even a FIN or a reset gets through); new connections are
 *    accepted but go nowhere. heal() lets everything held flow again, in order.
 */
import net from 'node:net';

export type ProxyMode = 'pass' | 'cut' | 'stall';

export interface Proxy {
  port: number;
  mode(): ProxyMode;
  cut(): void;
  stall(): void;
  heal(): void;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  server?: net.Socket;
}

export async function startProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<Proxy> {
  let mode: ProxyMode = 'pass';
  const pairs = new Set<Pair>();
  /** Work held back while stalled (closing a peer, connecting upstream), done in order at heal(). */
  const held: (() => void)[] = [];

  /** Runs `action` now, or at heal() while the network is stalled. */
  const whenFlowing = (action: () => void) => (mode === 'stall' ? held.push(action) : action());

  function forward(from: net.Socket, to: net.Socket): void {
    from.on('data', (chunk: Buffer) => {
      if (!to.write(chunk)) {
        from.pause();
        to.once('drain', () => mode !== 'stall' && from.resume());
      }
    });
    from.on('end', () => whenFlowing(() => to.end()));
  }

  function connectUpstream(pair: Pair): void {
    const server = net.connect(targetPort, targetHost);
    pair.server = server;
    server.on('error', () => {});
    server.on('close', () => whenFlowing(() => pair.client.destroy()));
    forward(pair.client, server);
    forward(server, pair.client);
    pair.client.resume();
  }

  const listener = net.createServer({ pauseOnConnect: true }, (client) => {
    client.on('error', () => {});
    if (mode === 'cut') {
      client.resetAndDestroy();
      return;
    }
    const pair: Pair = { client };
    pairs.add(pair);
    client.on('close', () => {
      pairs.delete(pair);
      whenFlowing(() => pair.server?.destroy());
    });
    whenFlowing(() => connectUpstream(pair));
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(0, '127.0.0.1', () => resolve());
  });

  return {
    port: (listener.address() as net.AddressInfo).port,
    mode: () => mode,
    cut() {
      mode = 'cut';
      for (const pair of pairs) {
        pair.client.resetAndDestroy();
        pair.server?.resetAndDestroy();
      }
      pairs.clear();
      held.length = 0;
    },
    stall() {
      mode = 'stall';
      for (const pair of pairs) {
        pair.client.pause();
        pair.server?.pause();
      }
    },
    heal() {
      const wasStalled = mode === 'stall';
      mode = 'pass';
      if (!wasStalled) return;
      for (const action of held.splice(0)) action();
      for (const pair of pairs) {
        if (pair.server) {
          pair.client.resume();
          pair.server.resume();
        }
      }
    },
    async close() {
      mode = 'cut';
      for (const pair of pairs) {
        pair.client.destroy();
        pair.server?.destroy();
      }
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}
