/**
 * The SDK against a live `svc serve` (compiled dist/): its committed types are
 * what openapi-typescript makes of the server's /openapi.json; a Pix sale
 * created, confirmed and paid through the sandbox; a card sale with a token
 * from the vault's /tokenize; a list walked across pages with `for await`;
 * the typed error of a bad request; and a real delivery to a local HTTPS
 * receiver verified by constructEvent, which refuses it tampered or old.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { constructEvent, isSvcApiError, Svc, type Transaction } from '../../packages/sdk/src/index.js';
import { encryptCard } from '../helpers/app.js';
import { BUYER, CARD_BUYER } from '../helpers/fixtures.js';
import { startHttpsReceiver, type HttpsReceiver, type ReceivedRequest } from '../helpers/https-receiver.js';
import { refusal, typesFromDocument } from '../helpers/sdk.js';
import { pollEverySecond, REPO_ROOT, startServer, type TestServer } from '../helpers/server.js';
import { createSelfSignedCert, type SelfSignedCert } from '../helpers/test-ca.js';

let cert: SelfSignedCert;
let receiver: HttpsReceiver;
let server: TestServer;
let svc: Svc;
/** Every request the SDK sent through `svc`, and the X-Request-Id of each answer. */
const sent: { method: string; url: URL; requestId: string | null }[] = [];

before(async () => {
  cert = await createSelfSignedCert();
  receiver = await startHttpsReceiver({ cert });
  server = await startServer({ env: { WEBHOOK_ALLOW_LOOPBACK: 'true', NODE_EXTRA_CA_CERTS: cert.certFile, RATE_LIMIT_PER_SECOND: '10000' } });
  svc = new Svc({
    apiKey: server.key,
    baseUrl: server.url,
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      sent.push({ method: init?.method ?? 'GET', url: new URL(String(input)), requestId: res.headers.get('x-request-id') });
      return res;
    },
  });
});

after(async () => {
  await server?.stop();
  await receiver?.close();
  cert?.remove();
});

let refCounter = 0;
const reference = (label: string) => `sdk-${label}-${process.pid}-${++refCounter}`;
// Bodies written as an integrator would, checked by the SDK's types (no cast).
const pix = (label: string, more: { confirm?: boolean; amountCents?: number; referenceId?: string } = {}) =>
  ({ amountCents: 10_000, paymentMethod: 'PIX', referenceId: reference(label), buyer: BUYER, ...more }) as const;

test('the committed packages/sdk/src/openapi.ts is what openapi-typescript makes of the live /openapi.json', async () => {
  const document: unknown = await (await fetch(`${server.url}/openapi.json`)).json();
  const committed = fs.readFileSync(path.join(REPO_ROOT, 'packages/sdk/src/openapi.ts'), 'utf8');
  assert.ok(committed === (await typesFromDocument(document)), 'packages/sdk/src/openapi.ts is out of date: run `npm run sdk:generate` and commit it');
});

test('Pix: create, confirm, pay through the sandbox route, read back PAID', async () => {
  const intent = await svc.paymentIntents.create(pix('pix'));
  assert.match(intent.id, /^pi_/);
  assert.equal(intent.status, 'REQUIRES_CONFIRMATION');
  assert.deepEqual(await svc.paymentIntents.get(intent.id), intent);

  const trx = await svc.paymentIntents.confirm(intent.id);
  assert.match(trx.id, /^trx_/);
  assert.equal(trx.status, 'PENDING');
  assert.match(trx.paymentDetails?.pix?.qrCode ?? '', /br\.gov\.bcb\.pix/);

  const paid = await svc.sandbox.pay(trx.id);
  assert.equal(paid.status, 'PAID');
  const read = await svc.transactions.get(trx.id);
  assert.equal(read.status, 'PAID');
  assert.equal(read.feeCents + read.netAmountCents, read.amountCents);
  assert.equal((await svc.paymentIntents.get(intent.id)).status, 'CONFIRMED');
  // Every POST carried an Idempotency-Key the server accepted (confirm requires one).
  assert.ok(sent.filter((s) => s.method === 'POST').length >= 3);
});

test('card: the token from the vault confirms the intent, PAID with brand and last4', async () => {
  const intent = await svc.paymentIntents.create({ amountCents: 4_990, paymentMethod: 'CREDIT_CARD', referenceId: reference('card'), buyer: CARD_BUYER });
  assert.equal(intent.status, 'REQUIRES_TOKEN');
  const tokenization = intent.cardTokenization;
  assert.ok(tokenization, 'a card intent carries cardTokenization');
  // What the vault's hosted fields do in the buyer's browser: the card encrypted for the vault, bound to the ticket.
  const card = { number: '4111111111111111', holderName: 'Maria da Silva', expMonth: 12, expYear: 2030, cvv: '123' };
  const encryptedCard = await encryptCard(tokenization, card);
  const res = await fetch(`${tokenization.vaultUrl}/tokenize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ticket: tokenization.ticket, keyId: tokenization.encryptionKey.kid, encryptedCard }),
  });
  const tokenized = (await res.json()) as { token: string };
  assert.equal(res.status, 201, JSON.stringify(tokenized));

  const trx = await svc.paymentIntents.confirm(intent.id, { token: tokenized.token });
  assert.equal(trx.status, 'PAID');
  assert.equal(trx.paymentMethod, 'CREDIT_CARD');
  assert.deepEqual([trx.paymentDetails?.card?.brand, trx.paymentDetails?.card?.last4], ['visa', '1111']);
});

test('for await walks every page of a list, asking each next page after the last id', async () => {
  const referenceId = reference('pages');
  const created: string[] = [];
  for (let i = 0; i < 5; i++) {
    const intent = await svc.paymentIntents.create(pix('pages', { referenceId, confirm: true, amountCents: 1_000 + i }));
    created.push(intent.transaction!.id);
  }
  const before = sent.length;
  const seen: Transaction[] = [];
  for await (const trx of svc.transactions.list({ referenceId, limit: 2 })) seen.push(trx);
  assert.deepEqual(
    seen.map((t) => t.id),
    [...created].reverse(),
    'every transaction once, newest first',
  );
  const pages = sent.slice(before);
  assert.equal(pages.length, 3, '2 + 2 + 1');
  assert.deepEqual(
    pages.map((p) => p.url.searchParams.get('startingAfter')),
    [null, seen[1]!.id, seen[3]!.id],
  );

  const first = await svc.transactions.list({ referenceId, limit: 2 });
  assert.equal(first.hasMore, true);
  assert.deepEqual(
    first.data.map((t) => t.id),
    seen.slice(0, 2).map((t) => t.id),
  );
});

test('a bad request is an SvcApiError with the code, the named fields and the request id', async () => {
  const err = await svc.paymentIntents
    .create(pix('bad', { amountCents: 0 }))
    .catch((e: unknown) => e);
  assert.ok(isSvcApiError(err, 'VALIDATION_ERROR'), String(err));
  assert.equal(err.status, 400);
  assert.ok(
    err.details.some((d) => d.field === 'amountCents'),
    JSON.stringify(err.details),
  );
  assert.equal(err.requestId, sent.at(-1)!.requestId);
  assert.equal(sent.at(-1)!.method, 'POST', 'a 400 is not retried');
  assert.equal(sent.filter((s) => s.requestId === err.requestId).length, 1);

  const missing = await svc.transactions.get('trx_doesnotexist').catch((e: unknown) => e);
  assert.ok(isSvcApiError(missing, 'NOT_FOUND'), String(missing));
  assert.equal(missing.status, 404);
});

/** The delivery's headers as a record of strings, less those named in `drop`. */
function headersOf(request: ReceivedRequest, drop: RegExp = /^$/): Record<string, string> {
  return Object.fromEntries(Object.entries(request.headers).flatMap(([k, v]) => (typeof v === 'string' && !drop.test(k) ? [[k, v]] : [])));
}


test("constructEvent accepts the service's real delivery and refuses it tampered or old", async () => {
  const hook = await svc.webhooks.create({ url: `${receiver.url}/hook`, events: ['transaction.paid'] });
  assert.match(hook.secret, /^whsec_/);
  assert.deepEqual((await svc.webhooks.list()).data.map((w) => w.id), [hook.id]);

  const intent = await svc.paymentIntents.create(pix('hook', { confirm: true }));
  const trxId = intent.transaction!.id;
  await svc.sandbox.pay(trxId);
  const [delivery] = await receiver.waitForRequests(1, { timeoutMs: 30_000 });
  const raw = delivery!.body;

  // As delivered (Standard Webhooks headers when the service sends them, X-Svc-* otherwise).
  const event = await constructEvent(raw, headersOf(delivery!), hook.secret);
  assert.equal(event.type, 'transaction.paid');
  assert.equal(event.data.transaction.id, trxId);
  assert.deepEqual(event, await svc.events.get(event.id));
  // With the X-Svc-* headers alone.
  const svcOnly = headersOf(delivery!, /^webhook-/);
  assert.deepEqual(await constructEvent(raw, svcOnly, hook.secret), event);

  const tampered = raw.toString('utf8').replace(`"amountCents":${event.data.transaction.amountCents}`, '"amountCents":1');
  assert.notEqual(tampered, raw.toString('utf8'));
  assert.equal(await refusal(constructEvent(tampered, headersOf(delivery!), hook.secret)), 'SIGNATURE_MISMATCH');
  assert.equal(await refusal(constructEvent(tampered, svcOnly, hook.secret)), 'SIGNATURE_MISMATCH');

  // Replayed ten minutes later, and re-signed with a timestamp ten minutes old: both refused.
  const tenMinutesLater = () => Date.now() + 600_000;
  assert.equal(await refusal(constructEvent(raw, headersOf(delivery!), hook.secret, { now: tenMinutesLater })), 'TIMESTAMP_OUT_OF_TOLERANCE');
  const old = String(Math.floor(Date.now() / 1000) - 600);
  const oldSignature = `v1=${createHmac('sha256', hook.secret).update(`${old}.`).update(raw).digest('hex')}`;
  assert.equal(await refusal(constructEvent(raw, { 'x-svc-timestamp': old, 'x-svc-signature': oldSignature }, hook.secret)), 'TIMESTAMP_OUT_OF_TOLERANCE');

  // A resend through the SDK arrives again, as verifiable, and is in the registration's delivery log.
  const resent = await svc.events.resend(event.id, { webhookId: hook.id });
  assert.equal(resent.eventId, event.id);
  const [, again] = await receiver.waitForRequests(2, { timeoutMs: 30_000 });
  assert.deepEqual(await constructEvent(again!.body, headersOf(again!), hook.secret), event);
  // The attempt is logged once its answer is in, a moment after the receiver has it; one per page here.
  const logged = async () => {
    const ids: string[] = [];
    for await (const attempt of svc.webhooks.deliveries(hook.id, { limit: 1 })) if (attempt.succeeded) ids.push(attempt.eventId);
    return ids;
  };
  assert.ok((await pollEverySecond(async () => (await logged()).length === 2, 10_000)) !== undefined, 'both attempts logged as succeeded');
  assert.deepEqual(await logged(), [event.id, event.id]);

  await svc.webhooks.delete(hook.id);
  const gone = await svc.webhooks.get(hook.id).catch((e: unknown) => e);
  assert.ok(isSvcApiError(gone, 'NOT_FOUND'), String(gone));
});
