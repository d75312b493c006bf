/**
 * Webhook deliveries with a fake sender (contract "Webhooks", "Event log"):
 * the signed request, fan-out at the time the event happened, the production
 * retry schedule on the manual clock (1 min, 5 min, 30 min, 2 h, 12 h after
 * each failure, then FAILED), one attempt in the sandbox, the delivery log,
 * DELETE stopping retries, and resend.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { engines } from '../helpers/db.js';
import { startTestApp, type TestApp, productionEnv } from '../helpers/app.js';
import type { Sender, SendResult } from '../../src/modules/webhooks/index.js';
import { settled } from '../helpers/outcome.js';
import { assertError } from '../helpers/assert.js';
import { pixIntent } from '../helpers/fixtures.js';
import { deliveredBody } from '../../src/modules/events/index.js';

type Json = Record<string, any>;

const MIN = 60_000;
const HOUR = 60 * MIN;

interface Call {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The manual clock when the request went out. */
  at: number;
}

/** Records every request; answers per URL with a scripted result (by the URL's call number, 1-based), default 200. */
class FakeSender implements Sender {
  calls: Call[] = [];
  private readonly scripts = new Map<string, (n: number) => SendResult | Promise<SendResult>>();
  constructor(private readonly t: () => TestApp) {}

  script(url: string, answer: (n: number) => SendResult | Promise<SendResult>): void {
    this.scripts.set(url, answer);
  }
  to(url: string): Call[] {
    return this.calls.filter((c) => c.url === url);
  }
  async send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    this.calls.push({ url, headers, body, at: this.t().clock.now().getTime() });
    const answer = this.scripts.get(url);
    return answer ? answer(this.to(url).length) : { statusCode: 200 };
  }
}

function expectedSignature(secret: string, timestamp: string, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** Checks a request's signature with node:crypto, as a receiver would. */
function assertSigned(call: Call, secret: string): void {
  const timestamp = call.headers['x-svc-timestamp']!;
  assert.match(timestamp, /^\d+$/);
  const header = call.headers['x-svc-signature']!;
  assert.match(header, /^v1=[0-9a-f]{64}$/, 'v1= and lowercase hex');
  const expected = Buffer.from(expectedSignature(secret, timestamp, call.body));
  assert.ok(expected.length === Buffer.byteLength(header) && timingSafeEqual(expected, Buffer.from(header)), 'the signature verifies');
}

/**
 * Checks the Standard Webhooks headers with the `standardwebhooks` library's
 * own signer (its verify() checks the timestamp against the real time; the
 * manual clock is days away from it).
 */
function assertStandardSigned(call: Call, secret: string, eventId: string): void {
  assert.equal(call.headers['webhook-id'], eventId, 'webhook-id is the event id');
  assert.equal(call.headers['webhook-timestamp'], call.headers['x-svc-timestamp'], 'webhook-timestamp is the send time in seconds');
  assert.match(call.headers['webhook-signature']!, /^v1,[A-Za-z0-9+/]{43}=$/, 'v1, and standard base64');
  const timestamp = new Date(Number(call.headers['webhook-timestamp']) * 1000);
  assert.equal(call.headers['webhook-signature'], new Webhook(secret).sign(eventId, timestamp, call.body));
  assert.notEqual(call.headers['webhook-signature'], new Webhook(secret).sign(eventId, timestamp, `${call.body} `));
}

async function register(t: TestApp, url: string, events: string[] = ['transaction.created'], key?: string): Promise<Json> {
  const res = await t.call({ method: 'POST', url: '/v2/webhooks', payload: { url, events }, ...(key ? { headers: { authorization: `Bearer ${key}` } } : {}) });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

async function remove(t: TestApp, ...hooks: Json[]): Promise<void> {
  for (const hook of hooks) assert.equal((await t.call({ method: 'DELETE', url: `/v2/webhooks/${hook.id}` })).statusCode, 204);
}

/** A confirmed Pix: a PENDING transaction and its transaction.created event. */
async function sale(t: TestApp, key?: string): Promise<{ trx: Json; eventId: string }> {
  const res = await t.call({
    method: 'POST',
    url: '/v2/payment-intents',
    payload: pixIntent({ confirm: true }),
    ...(key ? { headers: { authorization: `Bearer ${key}` } } : {}),
  });
  assert.equal(res.statusCode, 201, res.body);
  const trx = res.json().transaction;
  return { trx, eventId: await eventOf(t, trx.id, 'transaction.created') };
}

async function eventOf(t: TestApp, transactionId: string, type: string): Promise<string> {
  const row = await t.db.db.selectFrom('events').select('id').where('transaction_id', '=', transactionId).where('type', '=', type).executeTakeFirstOrThrow();
  return row.id;
}

async function eventBody(t: TestApp, id: string): Promise<string> {
  return deliveredBody((await t.db.db.selectFrom('events').select('body').where('id', '=', id).executeTakeFirstOrThrow()).body);
}

async function deliveriesOf(t: TestApp, webhookId: string) {
  return t.db.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).orderBy('id').execute();
}

/** A page of GET /v2/webhooks/{id}/deliveries: deliveries newest first, each with its attempts. */
async function logOf(t: TestApp, webhookId: string, query: Record<string, string> = {}): Promise<{ data: Json[]; hasMore: boolean }> {
  const res = await t.call({ method: 'GET', url: `/v2/webhooks/${webhookId}/deliveries`, query });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** Every attempt of the log's first page, newest delivery first and its latest attempt first, with its delivery's event id. */
async function attemptsOf(t: TestApp, webhookId: string): Promise<{ data: Json[] }> {
  const log = await logOf(t, webhookId, { limit: '100' });
  return { data: log.data.flatMap((d) => (d.attempts as Json[]).map((a) => ({ ...a, eventId: d.eventId, deliveryId: d.id }))) };
}

/** Runs one delivery round and checks how many deliveries it sent. */
async function round(t: TestApp, expected: number): Promise<void> {
  assert.equal(await t.services.deliveries.runOnce(), expected, `deliveries sent at ${t.clock.now().toISOString()}`);
}

/** No delivery of the app is PENDING (so tests sharing an app do not see each other's work). */
async function assertQuiet(t: TestApp): Promise<void> {
  const pending = await t.db.db.selectFrom('webhook_deliveries').select('id').where('state', '=', 'PENDING').execute();
  assert.deepEqual(pending, []);
}

for (const engine of engines()) {
  describe(`webhook delivery in the sandbox on ${engine}`, () => {
    let t: TestApp;
    const sender = new FakeSender(() => t);
    before(async () => {
      t = await startTestApp(engine, { sender });
    });
    after(async () => {
      await t.close();
    });

    test('the request: event headers, timestamp of the clock, v1 HMAC-SHA256 signature, body = the stored event', async () => {
      const url = 'https://hooks.example.com/signed';
      const hook = await register(t, url, ['transaction.created', 'transaction.paid']);
      const { trx, eventId } = await sale(t);
      assert.equal(sender.calls.length, 0, 'nothing is sent before the worker runs');
      t.clock.set('2026-11-21T12:34:56.789Z');
      await round(t, 1);
      const [call] = sender.to(url);
      assert.ok(call);
      assert.equal(call.headers['x-svc-event-id'], eventId);
      assert.equal(call.headers['x-svc-event'], 'transaction.created');
      assert.equal(call.headers['x-svc-timestamp'], String(Math.floor(Date.parse('2026-11-21T12:34:56.789Z') / 1000)));
      assert.equal(call.headers['x-svc-timestamp'], '1795264496');
      assert.match(call.headers['content-type']!, /^application\/json/);
      assert.equal(call.headers['x-svc-signature'], expectedSignature(hook.secret, call.headers['x-svc-timestamp']!, call.body));
      assertSigned(call, hook.secret);
      // Another key, another timestamp or another body does not verify.
      assert.notEqual(call.headers['x-svc-signature'], expectedSignature(`${hook.secret}x`, call.headers['x-svc-timestamp']!, call.body));
      assert.notEqual(call.headers['x-svc-signature'], expectedSignature(hook.secret, String(Number(call.headers['x-svc-timestamp']) + 1), call.body));
      assert.notEqual(call.headers['x-svc-signature'], expectedSignature(hook.secret, call.headers['x-svc-timestamp']!, `${call.body} `));
      assertStandardSigned(call, hook.secret, eventId);

      // The body is the event exactly as stored and as GET /v2/events/{id} shows it.
      assert.equal(call.body, await eventBody(t, eventId));
      assert.equal(call.body, (await t.call({ method: 'GET', url: `/v2/events/${eventId}` })).body);
      const event = JSON.parse(call.body);
      assert.deepEqual(Object.keys(event).sort(), ['createdAt', 'data', 'id', 'type']);
      assert.equal(event.id, eventId);
      assert.deepEqual(event.data.transaction, trx);

      const [delivery] = await deliveriesOf(t, hook.id);
      assert.equal(delivery!.state, 'SUCCEEDED');
      assert.equal(delivery!.attempts, 1);

      // The paid event follows with its own type and the PAID snapshot.
      t.clock.advance(5_000);
      assert.equal((await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${trx.id}/pay` })).statusCode, 200);
      await round(t, 1);
      const paid = sender.to(url)[1]!;
      const paidId = await eventOf(t, trx.id, 'transaction.paid');
      assert.equal(paid.headers['x-svc-event-id'], paidId);
      assert.equal(paid.headers['x-svc-event'], 'transaction.paid');
      assert.equal(paid.headers['x-svc-timestamp'], String(Math.floor(t.clock.now().getTime() / 1000)));
      assert.equal(paid.body, await eventBody(t, paidId));
      assert.equal(JSON.parse(paid.body).data.transaction.status, 'PAID');
      assertSigned(paid, hook.secret);
      await remove(t, hook);
      await assertQuiet(t);
    });

    test('fan-out happens when the event happens: later registrations and unselected types get nothing', async () => {
      const a = 'https://a.example.com/hook';
      const b = 'https://b.example.com/hook';
      const c = 'https://c.example.com/hook';
      const hookA = await register(t, a, ['transaction.created']);
      const first = await sale(t);
      const hookB = await register(t, b, ['transaction.created']);
      const hookC = await register(t, c, ['transaction.paid']);
      await round(t, 1);
      assert.deepEqual(sender.to(a).map((x) => x.headers['x-svc-event-id']), [first.eventId]);
      assert.equal(sender.to(b).length, 0, 'registered after the event');
      assert.equal(sender.to(c).length, 0, 'did not select transaction.created');
      await round(t, 0);

      const second = await sale(t);
      await round(t, 2);
      assert.deepEqual(sender.to(a).map((x) => x.headers['x-svc-event-id']), [first.eventId, second.eventId]);
      assert.deepEqual(sender.to(b).map((x) => x.headers['x-svc-event-id']), [second.eventId]);
      assert.equal(sender.to(b)[0]!.body, sender.to(a)[1]!.body, 'both receive the same body');
      assertSigned(sender.to(a)[1]!, hookA.secret);
      assertSigned(sender.to(b)[0]!, hookB.secret);
      assert.notEqual(sender.to(a)[1]!.headers['x-svc-signature'], sender.to(b)[0]!.headers['x-svc-signature'], 'each signed with its own secret');
      assert.equal(sender.to(c).length, 0);

      // C selected transaction.paid: it gets that one, A and B do not.
      assert.equal((await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${second.trx.id}/pay` })).statusCode, 200);
      await round(t, 1);
      assert.deepEqual(sender.to(c).map((x) => x.headers['x-svc-event']), ['transaction.paid']);
      assertSigned(sender.to(c)[0]!, hookC.secret);
      assert.equal(sender.to(a).length, 2);
      assert.equal(sender.to(b).length, 1);

      // A deleted registration gets nothing of later events.
      await remove(t, hookA);
      await sale(t);
      await round(t, 1);
      assert.equal(sender.to(a).length, 2);
      assert.equal(sender.to(b).length, 2);
      await remove(t, hookB, hookC);
      await assertQuiet(t);
    });

    test('the sandbox makes one attempt only: a failure is final', async () => {
      const url = 'https://down.example.com/hook';
      sender.script(url, () => ({ statusCode: 500 }));
      const hook = await register(t, url);
      await sale(t);
      await round(t, 1);
      const [delivery] = await deliveriesOf(t, hook.id);
      assert.equal(delivery!.state, 'FAILED');
      assert.equal(delivery!.attempts, 1);
      for (const step of [MIN, 5 * MIN, 30 * MIN, 2 * HOUR, 12 * HOUR, 24 * HOUR]) {
        t.clock.advance(step);
        await round(t, 0);
      }
      assert.equal(sender.to(url).length, 1);
      const log = await attemptsOf(t, hook.id);
      assert.equal(log.data.length, 1);
      assert.equal(log.data[0]!.statusCode, 500);
      assert.equal(log.data[0]!.succeeded, false);
      await remove(t, hook);
    });

    test('a sender error is recorded as the error of the attempt', async () => {
      const url = 'https://refused.example.com/hook';
      sender.script(url, () => ({ error: 'ECONNREFUSED' }));
      const hook = await register(t, url);
      const { eventId } = await sale(t);
      await round(t, 1);
      const log = await attemptsOf(t, hook.id);
      assert.equal(log.data.length, 1);
      const [attempt] = log.data;
      assert.equal(attempt!.eventId, eventId);
      assert.equal(attempt!.error, 'ECONNREFUSED');
      assert.equal('statusCode' in attempt!, false);
      assert.equal(attempt!.succeeded, false);
      assert.equal((await deliveriesOf(t, hook.id))[0]!.state, 'FAILED');
      await remove(t, hook);
    });

    test('a secret issued before (base64url): X-Svc-Signature as ever, Standard Webhooks keyed with its decoded bytes', async () => {
      const url = 'https://hooks.example.com/legacy';
      const hook = await register(t, url);
      // A base64url secret that uses both characters standard base64 lacks.
      let legacy: string;
      do legacy = `whsec_${randomBytes(32).toString('base64url')}`;
      while (!legacy.includes('-') || !legacy.includes('_'));
      await t.db.db.updateTable('webhooks').set({ secret_sealed: t.deps.sealer.seal(legacy) }).where('id', '=', hook.id).execute();
      const { eventId } = await sale(t);
      await round(t, 1);
      const call = sender.to(url)[0]!;
      assertSigned(call, legacy);
      // What the README tells a receiver holding such a secret: convert it to standard base64 for the library.
      const converted = `whsec_${Buffer.from(legacy.slice('whsec_'.length), 'base64url').toString('base64')}`;
      assertStandardSigned(call, converted, eventId);
      await remove(t, hook);
    });

    test('resend: 202, a new attempt with the same event id and body, a new timestamp and signature', async () => {
      const url = 'https://resend.example.com/hook';
      const other = 'https://resend-other.example.com/hook';
      const hook = await register(t, url, ['transaction.created']);
      const { eventId } = await sale(t);
      await round(t, 1);
      const original = sender.to(url)[0]!;

      t.clock.advance(90_000);
      const res = await t.call({ method: 'POST', url: `/v2/events/${eventId}/resend`, payload: { webhookId: hook.id } });
      assert.equal(res.statusCode, 202, res.body);
      const answer = res.json();
      assert.equal(answer.eventId, eventId);
      assert.equal(answer.deliveries.length, 1);
      assert.equal(answer.deliveries[0].webhookId, hook.id);
      assert.match(answer.deliveries[0].id, /^dlv_/);
      // The id a resend answers is the id the delivery log lists: at once (not sent yet), and once sent.
      const [first] = await deliveriesOf(t, hook.id);
      const queued = await logOf(t, hook.id);
      assert.deepEqual(
        queued.data.map((d) => [d.id, d.status, d.attempt, d.succeeded, d.attempts.length, d.nextAttemptAt ?? null]),
        [
          [answer.deliveries[0].id, 'PENDING', 0, false, 0, t.clock.now().toISOString()],
          [first!.id, 'SUCCEEDED', 1, true, 1, null],
        ],
      );
      await round(t, 1);
      const sent = await logOf(t, hook.id);
      assert.deepEqual(sent.data.map((d) => [d.id, d.status, d.attempt]), [[answer.deliveries[0].id, 'SUCCEEDED', 1], [first!.id, 'SUCCEEDED', 1]]);
      const again = sender.to(url)[1]!;
      assert.equal(again.headers['x-svc-event-id'], eventId);
      assert.equal(again.headers['x-svc-event'], 'transaction.created');
      assert.equal(again.body, original.body);
      assert.equal(again.headers['x-svc-timestamp'], String(Number(original.headers['x-svc-timestamp']) + 90));
      assert.notEqual(again.headers['x-svc-signature'], original.headers['x-svc-signature']);
      assertSigned(again, hook.secret);
      const log = await attemptsOf(t, hook.id);
      assert.equal(log.data.length, 2);
      assert.ok(log.data.every((a) => a.eventId === eventId && a.succeeded));

      // Without webhookId: every active registration that selected the type (registered after the event, too).
      const hook2 = await register(t, other, ['transaction.created']);
      const hook3 = await register(t, 'https://resend-paid.example.com/hook', ['transaction.paid']);
      t.clock.advance(1_000);
      const all = await t.call({ method: 'POST', url: `/v2/events/${eventId}/resend` });
      assert.equal(all.statusCode, 202, all.body);
      assert.deepEqual(all.json().deliveries.map((d: Json) => d.webhookId).sort(), [hook.id, hook2.id].sort());
      await round(t, 2);
      assert.equal(sender.to(url).length, 3);
      assert.equal(sender.to(other).length, 1);
      assert.equal(sender.to(other)[0]!.body, original.body);
      assertSigned(sender.to(other)[0]!, hook2.secret);
      assert.equal(sender.to('https://resend-paid.example.com/hook').length, 0);
      const resentTo = new Map(all.json().deliveries.map((d: Json) => [d.webhookId, d.id]));
      assert.equal((await logOf(t, hook2.id)).data[0]!.id, resentTo.get(hook2.id));
      // Paged by delivery id, newest first: the three deliveries to the first registration, one per page.
      const pages: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await logOf(t, hook.id, { limit: '1', ...(after ? { startingAfter: after } : {}) });
        pages.push(...page.data.map((d) => d.id as string));
        after = page.data.at(-1)?.id;
        if (!page.hasMore) break;
      }
      assert.deepEqual(pages, [resentTo.get(hook.id), answer.deliveries[0].id, first!.id]);
      const empty = await t.call({ method: 'POST', url: `/v2/events/${eventId}/resend`, payload: {} });
      assert.equal(empty.statusCode, 202);
      await round(t, 2);

      // Unknown event, unknown or deleted registration: 404; a malformed webhookId: 400.
      assertError(await t.call({ method: 'POST', url: '/v2/events/evt_00000000000000000000000000/resend', payload: {} }), 404, 'NOT_FOUND');
      assertError(await t.call({ method: 'POST', url: `/v2/events/${eventId}/resend`, payload: { webhookId: 'whk_00000000000000000000000000' } }), 404, 'NOT_FOUND');
      assertError(await t.call({ method: 'POST', url: `/v2/events/${eventId}/resend`, payload: { webhookId: 'nope' } }), 400, 'VALIDATION_ERROR');
      assertError(await t.call({ method: 'POST', url: `/v2/events/${eventId}/resend`, payload: { webhookId: hook.id, extra: 1 } }), 400, 'VALIDATION_ERROR');
      await remove(t, hook3);
      assertError(await t.call({ method: 'POST', url: `/v2/events/${eventId}/resend`, payload: { webhookId: hook3.id } }), 404, 'NOT_FOUND');
      await round(t, 0);
      await remove(t, hook, hook2);
      await assertQuiet(t);
    });

    test("resend to another company's registration is 404, and so are its delivery log and events", async () => {
      const other = settled(await t.services.companies.createCompany('Outra Loja Ltda', '00000000000191'));
      const otherKey = (settled(await t.services.companies.issueKey(other.id))).key;
      const theirUrl = 'https://theirs.example.com/hook';
      const theirHook = await register(t, theirUrl, ['transaction.created'], otherKey);
      const mine = await register(t, 'https://mine.example.com/hook');
      const { eventId } = await sale(t);
      await round(t, 1);
      const res = await t.call({ method: 'POST', url: `/v2/events/${eventId}/resend`, payload: { webhookId: theirHook.id } });
      assertError(res, 404, 'NOT_FOUND');
      await round(t, 0);
      assert.equal(sender.to(theirUrl).length, 0, 'their registration never got our event');
      assertError(await t.call({ method: 'GET', url: `/v2/webhooks/${theirHook.id}/deliveries` }), 404, 'NOT_FOUND');
      assertError(await t.call({ method: 'GET', url: `/v2/webhooks/${theirHook.id}` }), 404, 'NOT_FOUND');
      assertError(await t.call({ method: 'DELETE', url: `/v2/webhooks/${theirHook.id}` }), 404, 'NOT_FOUND');
      // Nor may they resend our event.
      assertError(
        await t.app.inject({ method: 'POST', url: `/v2/events/${eventId}/resend`, payload: {}, headers: { authorization: `Bearer ${otherKey}` } }),
        404,
        'NOT_FOUND',
      );
      assert.equal((await t.app.inject({ method: 'GET', url: `/v2/webhooks/${theirHook.id}`, headers: { authorization: `Bearer ${otherKey}` } })).statusCode, 200);
      await remove(t, mine);
      await assertQuiet(t);
    });
  });

  describe(`webhook delivery in production on ${engine}`, () => {
    let t: TestApp;
    const sender = new FakeSender(() => t);
    before(async () => {
      t = await startTestApp(engine, { sender, env: productionEnv() });
      assert.match(t.key, /^svc_live_/);
    });
    after(async () => {
      await t.close();
    });

    test('a receiver failing 3 times then 200 gets exactly 4 attempts: at 0, +1 min, +5 min, +30 min after each failure', async () => {
      const url = 'https://flaky.example.com/hook';
      sender.script(url, (n) => (n <= 3 ? { statusCode: n === 2 ? 503 : 500 } : { statusCode: 200 }));
      const hook = await register(t, url);
      const { eventId } = await sale(t);
      const start = t.clock.now().getTime();
      await round(t, 1);
      const expectedAt = [start];
      for (const delay of [MIN, 5 * MIN, 30 * MIN]) {
        const sent = sender.to(url).length;
        t.clock.advance(delay - 1);
        await round(t, 0);
        assert.equal(sender.to(url).length, sent, `nothing is sent 1 ms before the attempt due ${delay} ms after the failure`);
        t.clock.advance(1);
        await round(t, 1);
        expectedAt.push(t.clock.now().getTime());
        assert.equal(sender.to(url).length, sent + 1);
      }
      const calls = sender.to(url);
      assert.deepEqual(
        calls.map((c) => c.at - start),
        [0, MIN, 6 * MIN, 36 * MIN],
      );
      assert.ok(calls.every((c) => c.headers['x-svc-event-id'] === eventId));
      assert.deepEqual(
        calls.map((c) => c.headers['x-svc-timestamp']),
        expectedAt.map((ms) => String(Math.floor(ms / 1000))),
      );
      for (const call of calls) assertSigned(call, hook.secret);
      assert.equal(new Set(calls.map((c) => c.headers['x-svc-signature'])).size, 4, 'each attempt is signed anew');

      const [delivery] = await deliveriesOf(t, hook.id);
      assert.equal(delivery!.state, 'SUCCEEDED');
      assert.equal(delivery!.attempts, 4);
      t.clock.advance(24 * HOUR);
      await round(t, 0);
      assert.equal(sender.to(url).length, 4, 'no attempt after the success');

      // The delivery log: the delivery, its latest attempt's outcome at the top, every attempt newest first.
      const log = await logOf(t, hook.id);
      assert.equal(log.hasMore, false);
      assert.equal(log.data.length, 1);
      const [entry] = log.data as [Json];
      assert.equal(entry.id, delivery!.id, 'the delivery id (dlv_), as a resend answers it');
      assert.match(entry.id, /^dlv_/);
      assert.deepEqual(
        [entry.eventId, entry.status, entry.attempt, entry.attemptedAt, entry.statusCode, entry.succeeded, 'nextAttemptAt' in entry],
        [eventId, 'SUCCEEDED', 4, new Date(expectedAt[3]!).toISOString(), 200, true, false],
      );
      assert.deepEqual(
        entry.attempts.map((a: Json) => [a.attempt, a.attemptedAt, a.statusCode, a.succeeded]),
        [
          [4, new Date(expectedAt[3]!).toISOString(), 200, true],
          [3, new Date(expectedAt[2]!).toISOString(), 500, false],
          [2, new Date(expectedAt[1]!).toISOString(), 503, false],
          [1, new Date(expectedAt[0]!).toISOString(), 500, false],
        ],
      );
      for (const a of entry.attempts as Json[]) {
        assert.ok(Number.isInteger(a.durationMs) && a.durationMs >= 0, 'durationMs is a whole number');
        assert.equal('error' in a, false);
      }
      assertError(await t.call({ method: 'GET', url: `/v2/webhooks/${hook.id}/deliveries`, query: { limit: '101' } }), 400, 'VALIDATION_ERROR');
      assertError(await t.call({ method: 'GET', url: '/v2/webhooks/whk_00000000000000000000000000/deliveries' }), 404, 'NOT_FOUND');
      await remove(t, hook);
      await assertQuiet(t);
    });

    test('a receiver that never succeeds gets 6 attempts (then 1 m, 5 m, 30 m, 2 h, 12 h later), then FAILED and never a 7th', async () => {
      const url = 'https://never.example.com/hook';
      sender.script(url, () => ({ statusCode: 500 }));
      const hook = await register(t, url);
      const { eventId } = await sale(t);
      const start = t.clock.now().getTime();
      await round(t, 1);
      let offset = 0;
      const offsets = [0];
      for (const delay of [MIN, 5 * MIN, 30 * MIN, 2 * HOUR, 12 * HOUR]) {
        t.clock.advance(delay - 1);
        await round(t, 0);
        t.clock.advance(1);
        await round(t, 1);
        offset += delay;
        offsets.push(offset);
        const [delivery] = await deliveriesOf(t, hook.id);
        assert.equal(delivery!.state, offsets.length === 6 ? 'FAILED' : 'PENDING');
      }
      const calls = sender.to(url);
      assert.deepEqual(calls.map((c) => c.at - start), offsets);
      assert.deepEqual(offsets, [0, MIN, 6 * MIN, 36 * MIN, 156 * MIN, 876 * MIN]);
      assert.ok(calls.every((c) => c.headers['x-svc-event-id'] === eventId));

      const [delivery] = await deliveriesOf(t, hook.id);
      assert.equal(delivery!.state, 'FAILED');
      assert.equal(delivery!.attempts, 6);
      for (const step of [1, MIN, 12 * HOUR, 24 * HOUR, 30 * 24 * HOUR]) {
        t.clock.advance(step);
        await round(t, 0);
      }
      assert.equal(sender.to(url).length, 6, 'no 7th attempt ever');
      const log = await attemptsOf(t, hook.id);
      assert.deepEqual(log.data.map((a) => a.attempt).sort(), [1, 2, 3, 4, 5, 6]);
      assert.ok(log.data.every((a) => a.statusCode === 500 && a.succeeded === false));
      await remove(t, hook);
      await assertQuiet(t);
    });

    test('a sender error (ECONNREFUSED) is recorded as error and retried', async () => {
      const url = 'https://refused.example.com/hook';
      sender.script(url, (n) => (n === 1 ? { error: 'ECONNREFUSED' } : { statusCode: 204 }));
      const hook = await register(t, url);
      await sale(t);
      await round(t, 1);
      const [pending] = await deliveriesOf(t, hook.id);
      assert.equal(pending!.state, 'PENDING');
      assert.equal(pending!.next_attempt_at.getTime(), t.clock.now().getTime() + MIN);
      t.clock.advance(MIN - 1);
      await round(t, 0);
      t.clock.advance(1);
      await round(t, 1);
      const log = await attemptsOf(t, hook.id);
      assert.deepEqual(
        log.data.map((a) => [a.attempt, a.statusCode ?? null, a.error ?? null, a.succeeded]),
        [
          [2, 204, null, true],
          [1, null, 'ECONNREFUSED', false],
        ],
      );
      assert.equal((await deliveriesOf(t, hook.id))[0]!.state, 'SUCCEEDED');
      await remove(t, hook);
      await assertQuiet(t);
    });

    test('DELETE of a registration stops its pending retries (CANCELED, nothing more is sent)', async () => {
      const url = 'https://deleted.example.com/hook';
      sender.script(url, () => ({ statusCode: 500 }));
      const hook = await register(t, url);
      await sale(t);
      await sale(t);
      await round(t, 2);
      t.clock.advance(MIN);
      await round(t, 2);
      assert.equal(sender.to(url).length, 4);
      const del = await t.call({ method: 'DELETE', url: `/v2/webhooks/${hook.id}` });
      assert.equal(del.statusCode, 204);
      const deliveries = await deliveriesOf(t, hook.id);
      assert.deepEqual(deliveries.map((d) => [d.state, d.attempts]), [['CANCELED', 2], ['CANCELED', 2]]);
      for (const step of [5 * MIN, 30 * MIN, 2 * HOUR, 12 * HOUR, 24 * HOUR]) {
        t.clock.advance(step);
        await round(t, 0);
      }
      assert.equal(sender.to(url).length, 4, 'no send after the DELETE');
      // The log of what was attempted stays readable.
      const log = await attemptsOf(t, hook.id);
      assert.equal(log.data.length, 4);
      // Resending to it is 404: it is gone.
      const eventId = await t.db.db.selectFrom('webhook_deliveries').select('event_id').where('webhook_id', '=', hook.id).executeTakeFirstOrThrow();
      assertError(await t.call({ method: 'POST', url: `/v2/events/${eventId.event_id}/resend`, payload: { webhookId: hook.id } }), 404, 'NOT_FOUND');
      await assertQuiet(t);
    });

    test('a DELETE while an attempt is in flight: the attempt is logged, the delivery stays CANCELED, no retry', async () => {
      const url = 'https://inflight.example.com/hook';
      let release!: (r: SendResult) => void;
      let arrived!: () => void;
      const inFlight = new Promise<void>((r) => (arrived = r));
      sender.script(url, () => {
        arrived();
        return new Promise<SendResult>((r) => (release = r));
      });
      const hook = await register(t, url);
      const { eventId } = await sale(t);
      const running = t.services.deliveries.runOnce();
      await inFlight;
      assert.equal((await t.call({ method: 'DELETE', url: `/v2/webhooks/${hook.id}` })).statusCode, 204);
      release({ statusCode: 500 });
      assert.equal(await running, 1);
      const [delivery] = await deliveriesOf(t, hook.id);
      assert.equal(delivery!.state, 'CANCELED');
      assert.equal(delivery!.attempts, 1);
      assert.equal(delivery!.locked_until, null);
      const log = await attemptsOf(t, hook.id);
      assert.deepEqual(log.data.map((a) => [a.eventId, a.attempt, a.statusCode, a.succeeded]), [[eventId, 1, 500, false]]);
      for (const step of [MIN, 5 * MIN, 24 * HOUR]) {
        t.clock.advance(step);
        await round(t, 0);
      }
      assert.equal(sender.to(url).length, 1, 'no retry after the DELETE');
      await assertQuiet(t);
    });

    test('a PAID transaction (paid through the service) is delivered as transaction.paid', async () => {
      const url = 'https://paid.example.com/hook';
      const hook = await register(t, url, ['transaction.paid']);
      const { trx } = await sale(t);
      await round(t, 0);
      const paid = settled(await t.services.transactions.settleInSandbox(t.companyId, trx.id, 'PAID'));
      assert.equal(paid.status, 'PAID');
      await round(t, 1);
      const [call] = sender.to(url);
      assert.equal(call!.headers['x-svc-event'], 'transaction.paid');
      assert.equal(call!.headers['x-svc-event-id'], await eventOf(t, trx.id, 'transaction.paid'));
      assert.deepEqual(JSON.parse(call!.body).data.transaction, (await t.call({ method: 'GET', url: `/v2/transactions/${trx.id}` })).json());
      assertSigned(call!, hook.secret);
      await remove(t, hook);
      await assertQuiet(t);
    });
  });
}
