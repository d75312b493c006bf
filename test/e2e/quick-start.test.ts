/**
 * What a first `npm start` shows: a port in use stops the start with one line
 * naming the variable that moves it (no stack trace, exit code 1); `GET /`
 * points to the reference; at `info` each request is one log line.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, test } from 'node:test';
import { childEnv, createDeployment, freePort, spawnSvc, startServer, type Deployment, type TestServer } from '../helpers/server.js';

let deployment: Deployment | undefined;
let live: TestServer | undefined;

after(async () => {
  if (live) await live.stop();
  await deployment?.destroy();
});

/** Holds a port, as another program would. */
async function holdPort(): Promise<{ port: number; release(): Promise<void> }> {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, resolve));
  return { port: (holder.address() as net.AddressInfo).port, release: () => new Promise((resolve) => holder.close(() => resolve())) };
}

test('a port in use stops svc serve with one line naming PORT or VAULT_PORT', async () => {
  deployment = await createDeployment();
  const held = await holdPort();
  try {
    for (const variable of ['PORT', 'VAULT_PORT'] as const) {
      const ports = { PORT: String(await freePort()), VAULT_PORT: String(await freePort()), [variable]: String(held.port) };
      const proc = spawnSvc(['serve'], childEnv(deployment, { ...ports, PUBLIC_VAULT_URL: `http://localhost:${ports.VAULT_PORT}` }));
      const exit = await proc.exited;
      assert.equal(exit.code, 1, proc.output());
      assert.equal(proc.stderr(), `port ${held.port} is in use; set ${variable} to another port\n`, 'one line, no stack trace');
    }
  } finally {
    await held.release();
  }
});

test('GET / points to /docs, and a request is one log line at info', async () => {
  live = await startServer({ env: { LOG_LEVEL: 'info' } });
  const root = await fetch(`${live.url}/`, { redirect: 'manual' });
  assert.equal(root.status, 302);
  assert.equal(root.headers.get('location'), '/docs');
  assert.equal(((await root.json()) as { docs: string }).docs, '/docs', 'a client that does not follow redirects reads the pointer');
  const followed = await fetch(`${live.url}/`);
  assert.equal(followed.status, 200);
  assert.match(followed.headers.get('content-type') ?? '', /^text\/html/, 'a browser lands on the reference page');

  const requestId = `one-line-${process.pid}-${Date.now()}`;
  const res = await live.api('/v2/transactions?referenceId=secret-in-query', { headers: { 'x-request-id': requestId } });
  assert.equal(res.status, 200);
  // The line is written once the response is sent: wait for it rather than guess a delay.
  const linesOf = () => live!.stdout().split('\n').filter((l) => l.includes(requestId));
  const deadline = Date.now() + 5_000;
  while (linesOf().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  await new Promise((resolve) => setTimeout(resolve, 200)); // a second line, if one were written, would be here by now
  const lines = linesOf();
  assert.equal(lines.length, 1, lines.join('\n'));
  const line = JSON.parse(lines[0]!) as Record<string, any>;
  assert.equal(line.reqId, requestId);
  assert.equal(line.req.method, 'GET');
  assert.equal(line.req.url, '/v2/transactions?referenceId=[redacted]', 'query values stay out of the log');
  assert.equal(line.res.statusCode, 200);
  assert.equal(typeof line.responseTime, 'number');
  assert.doesNotMatch(lines[0]!, /authorization|svc_test_/i, 'no key in the line');
});
