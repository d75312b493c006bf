/**
 * `svc listen` and `svc trigger` against a running `svc serve` (compiled
 * dist/), as a developer uses them on a laptop: listen follows the event log
 * with the sandbox key and forwards each event to a local receiver, which
 * verifies it with the `standardwebhooks` library and the X-Svc-Signature
 * recipe; trigger makes the sandbox payment of each event type. Stopped and
 * started again on the same state file, listen keeps its secret and forwards
 * only what came after, once; a first start forwards none of the history.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { childEnv, runCli, spawnSvc, startServer, type SvcProcess, type TestServer } from '../helpers/server.js';

interface Received {
  headers: Record<string, string>;
  body: string;
}

let server: TestServer;
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];
let stateDir: string;

before(async () => {
  server = await startServer();
  receiver = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-listen-'));
});

after(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  fs.rmSync(stateDir, { recursive: true, force: true });
  assert.deepEqual(await server.stop(), { code: 0, signal: null });
});

/** The key and URL of the running server, as a developer exports them. */
const clientEnv = () => ({ SVC_API_KEY: server.key, SVC_API_URL: server.url });

async function triggerEvent(type: string): Promise<string> {
  const res = await runCli(server.deployment, ['trigger', type], clientEnv());
  assert.equal(res.code, 0, res.stderr);
  return res.stdout;
}

async function startListen(extra: string[] = [], state = path.join(stateDir, 'listen.json')): Promise<{ proc: SvcProcess; secret: string }> {
  const proc = spawnSvc(['listen', '--forward-to', receiverUrl, '--state', state, ...extra], childEnv(server.deployment, clientEnv()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const match = /Webhook signing secret: (whsec_\S+)/.exec(proc.stdout());
    if (match) return { proc, secret: match[1]! };
    assert.ok(Date.now() < deadline && !proc.exitInfo(), `svc listen did not start: ${proc.output()}`);
    await sleep(50);
  }
}

async function waitForReceived(count: number): Promise<Received[]> {
  const deadline = Date.now() + 15_000;
  while (received.length < count && Date.now() < deadline) await sleep(50);
  assert.equal(received.length, count, `received ${received.map((r) => r.headers['webhook-id']).join(', ')}`);
  return received;
}

/** Both signatures of a forwarded request with the local secret: the library's check and the X-Svc-Signature recipe. */
function assertVerified(r: Received, secret: string): { id: string; type: string; data: { transaction: { id: string; version: number } } } {
  const event = new Webhook(secret).verify(r.body, r.headers) as { id: string; type: string; data: { transaction: { id: string; version: number } } };
  assert.equal(r.headers['webhook-id'], event.id);
  assert.equal(r.headers['x-svc-event-id'], event.id);
  assert.equal(r.headers['x-svc-event'], event.type);
  const expected = `v1=${createHmac('sha256', secret).update(`${r.headers['x-svc-timestamp']}.${r.body}`).digest('hex')}`;
  assert.equal(r.headers['x-svc-signature'], expected);
  assert.throws(() => new Webhook(secret).verify(`${r.body} `, r.headers), /No matching signature/);
  return event;
}

test('svc listen forwards signed events of the key’s company; svc trigger makes each event; a restart resumes without repeats', async () => {
  // History before the first start is not forwarded.
  const before = /transaction (trx_\w+) PENDING \(transaction\.created\)$/m.exec(await triggerEvent('transaction.created'));
  assert.ok(before, 'trigger prints the transaction it made');

  const first = await startListen();
  assert.match(first.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  const paidOut = await triggerEvent('transaction.paid');
  assert.match(paidOut, /transaction trx_\w+ PENDING \(transaction\.created\)\npaid trx_\w+ \(transaction\.paid\)/);
  const [created, paid] = (await waitForReceived(2)).map((r) => assertVerified(r, first.secret));
  assert.deepEqual([created!.type, paid!.type], ['transaction.created', 'transaction.paid']);
  assert.equal(created!.data.transaction.id, paid!.data.transaction.id);
  assert.notEqual(created!.data.transaction.id, before[1], 'the sale made before the first start is not forwarded');
  assert.deepEqual([created!.data.transaction.version, paid!.data.transaction.version], [1, 2]);
  // The event as the API holds it, byte for byte.
  assert.equal(received[1]!.body, await (await server.api(`/v2/events/${paid!.id}`)).text());
  await sleep(200);
  const lines = first.proc.stdout().split('\n').filter((l) => l.includes(' → '));
  assert.equal(lines.length, 2, first.proc.stdout());
  assert.match(lines[1]!, new RegExp(`transaction\\.paid\\s+${paid!.id}  → 204 \\(\\d+ ms\\)$`));
  assert.deepEqual(await first.proc.stop(), { code: 0, signal: null });

  // While stopped: a cancel. Started again: the same secret, only what came after, once.
  const canceledOut = await triggerEvent('transaction.canceled');
  assert.match(canceledOut, /canceled trx_\w+ through the sandbox fail route/);
  const second = await startListen(['--events', 'transaction.canceled,refund.succeeded']);
  assert.equal(second.secret, first.secret, 'the secret is kept in the state file');
  const afterCancel = await waitForReceived(3);
  const canceled = assertVerified(afterCancel[2]!, second.secret);
  assert.equal(canceled.type, 'transaction.canceled');
  assert.equal(canceled.data.transaction.version, 2);

  const refundOut = await triggerEvent('refund.succeeded');
  assert.match(refundOut, /refund rf_\w+ of trx_\w+: SUCCEEDED, 10000 centavos/);
  const all = await waitForReceived(5);
  const [refunded, canceledByRefund] = all.slice(3).map((r) => assertVerified(r, second.secret));
  assert.deepEqual([refunded!.type, canceledByRefund!.type], ['refund.succeeded', 'transaction.canceled']);
  assert.deepEqual([refunded!.data.transaction.version, canceledByRefund!.data.transaction.version], [3, 3]);
  await sleep(1_000);
  assert.equal(received.length, 5, 'nothing forwarded twice, the created and paid events of the refund flow filtered out');
  assert.equal(new Set(received.map((r) => r.headers['webhook-id'])).size, 5);
  assert.deepEqual(await second.proc.stop(), { code: 0, signal: null });

  const state = fs.statSync(path.join(stateDir, 'listen.json'));
  assert.equal(state.mode & 0o777, 0o600, 'the state file holds a secret: owner only');
  assert.ok(!fs.readFileSync(path.join(stateDir, 'listen.json'), 'utf8').includes(server.key), 'the API key is not written');
});

test('svc listen --print-secret prints the signing secret alone, the one listen then signs with', async () => {
  const state = path.join(stateDir, 'print-secret.json');
  const printed = await runCli(server.deployment, ['listen', '--print-secret', '--state', state], clientEnv());
  assert.equal(printed.code, 0, printed.stderr);
  assert.match(printed.stdout, /^whsec_[A-Za-z0-9+/]{43}=\n$/, 'the secret and a newline, nothing else');
  assert.equal(printed.stderr, '');
  assert.equal(fs.statSync(state).mode & 0o777, 0o600, 'made and kept as a first start would');
  const again = await runCli(server.deployment, ['listen', '--print-secret', '--state', state], clientEnv());
  assert.equal(again.stdout, printed.stdout, 'the same secret every time');

  const listener = await startListen([], state);
  try {
    assert.equal(listener.secret, printed.stdout.trim(), 'listen signs with the printed secret');
  } finally {
    assert.deepEqual(await listener.proc.stop(), { code: 0, signal: null });
  }
  const withTarget = await runCli(server.deployment, ['listen', '--print-secret', '--forward-to', receiverUrl], clientEnv());
  assert.equal(withTarget.code, 2);
  assert.match(withTarget.stderr, /--print-secret forwards nothing/);
});

test('svc trigger refuses what the sandbox cannot make and what is not an event type; listen needs a key', async () => {
  const failed = await runCli(server.deployment, ['trigger', 'refund.failed'], clientEnv());
  assert.equal(failed.code, 2);
  assert.match(failed.stderr, /refund\.failed cannot be triggered/);
  const unknown = await runCli(server.deployment, ['trigger', 'transaction.exploded'], clientEnv());
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown event type/);
  const badKey = await runCli(server.deployment, ['trigger', 'transaction.created'], { SVC_API_KEY: 'svc_test_nope', SVC_API_URL: server.url });
  assert.equal(badKey.code, 1);
  assert.match(badKey.stderr, /401/);
  const noKey = await runCli(server.deployment, ['listen', '--forward-to', receiverUrl], { SVC_API_URL: server.url });
  assert.equal(noKey.code, 2);
  assert.match(noKey.stderr, /SVC_API_KEY/);
});
