/**
 * Webhook retries back off like Svix's (issue 28): a retry waits its
 * scheduled delay plus a random share of it (jitter, from the injected
 * source), so deliveries that failed together come back spread; a 429 or 503
 * with Retry-After puts the retry off as asked, within the schedule's bounds.
 * The manual clock reads every due time; the real sender's reading of the
 * header runs against a receiver on 127.0.0.1.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { engines } from '../helpers/db.js';
import { productionEnv, startTestApp, type TestApp } from '../helpers/app.js';
import { httpSender, type Sender, type SendResult } from '../../src/modules/webhooks/index.js';
import { pixIntent } from '../helpers/fixtures.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

/** Answers each URL with its script (by the URL's call number, 1-based); records when each request went out. */
class ScriptedSender implements Sender {
  readonly calls: { url: string; at: number }[] = [];
  private readonly scripts = new Map<string, (n: number) => SendResult>();
  constructor(private readonly t: () => TestApp) {}
  script(url: string, answer: (n: number) => SendResult): void {
    this.scripts.set(url, answer);
  }
  to(url: string): number[] {
    return this.calls.filter((c) => c.url === url).map((c) => c.at);
  }
  async send(url: string): Promise<SendResult> {
    this.calls.push({ url, at: this.t().clock.now().getTime() });
    return this.scripts.get(url)?.(this.to(url).length) ?? { statusCode: 200 };
  }
}

for (const engine of engines()) {
  describe(`webhook retries on ${engine}`, () => {
    let t: TestApp;
    const sender = new ScriptedSender(() => t);
    const randoms: number[] = [];
    before(async () => {
      t = await startTestApp(engine, { sender, env: productionEnv(), random: () => randoms.shift() ?? 0 });
    });
    after(() => t.close());

    async function register(url: string): Promise<string> {
      const res = await t.call({ method: 'POST', url: '/v2/webhooks', payload: { url, events: ['transaction.created'] } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().id;
    }
    async function remove(id: string): Promise<void> {
      assert.equal((await t.call({ method: 'DELETE', url: `/v2/webhooks/${id}` })).statusCode, 204);
    }
    async function sale(): Promise<void> {
      assert.equal((await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ confirm: true }) })).statusCode, 201);
    }
    /** The due times of the webhook's deliveries, as the delivery log shows them (ms). */
    async function nextAttempts(webhookId: string): Promise<number[]> {
      const res = await t.call({ method: 'GET', url: `/v2/webhooks/${webhookId}/deliveries` });
      assert.equal(res.statusCode, 200, res.body);
      return (res.json().data as { nextAttemptAt?: string }[]).map((d) => Date.parse(d.nextAttemptAt!)).sort((a, b) => a - b);
    }

    test('deliveries that failed together come back spread over a fifth of the delay, each at its own time', async () => {
      const url = 'https://down.example.com/hook';
      sender.script(url, (n) => (n <= 5 ? { statusCode: 500 } : { statusCode: 200 }));
      const hook = await register(url);
      for (let i = 0; i < 5; i++) await sale();
      const failedAt = t.clock.now().getTime();
      randoms.push(0, 0.25, 0.5, 0.75, 0.99);
      assert.equal(await t.services.deliveries.runOnce(), 5);
      const due = await nextAttempts(hook);
      assert.deepEqual(
        due.map((at) => at - failedAt),
        [0, 0.25, 0.5, 0.75, 0.99].map((r) => MIN + Math.floor(MIN * 0.2 * r)),
      );
      assert.equal(new Set(due).size, 5, 'no two in the same second');
      // Each comes back at its own time, not before.
      for (const at of due) {
        t.clock.set(new Date(at - 1));
        assert.equal(await t.services.deliveries.runOnce(), 0);
        t.clock.set(new Date(at));
        assert.equal(await t.services.deliveries.runOnce(), 1);
      }
      assert.deepEqual(sender.to(url).slice(5), due);
      await remove(hook);
    });

    test('Retry-After on a 429 (seconds) and a 503 (HTTP date) is honoured within the schedule; on a 500 it is not', async () => {
      const url = 'https://busy.example.com/hook';
      const answers: SendResult[] = [
        { statusCode: 429, retryAfter: '600' }, // 10 min instead of 1 min
        { statusCode: 503, retryAfter: '' }, // replaced below: a date 3 h after the second failure
        { statusCode: 429, retryAfter: '5' }, // sooner than the 30 min step: the step
        { statusCode: 503, retryAfter: String(7 * 24 * 3600) }, // a week: the longest step, 12 h
        { statusCode: 500, retryAfter: '36000' }, // not a 429 or 503: the 12 h step, not 10 h
        { statusCode: 200 },
      ];
      sender.script(url, (n) => {
        const answer = answers[n - 1]!;
        if (n === 2) return { statusCode: 503, retryAfter: new Date(t.clock.now().getTime() + 3 * HOUR).toUTCString() };
        return answer;
      });
      const hook = await register(url);
      // On a whole second: an HTTP date has no milliseconds.
      t.clock.set(new Date(Math.ceil(t.clock.now().getTime() / 1000) * 1000));
      await sale();
      const start = t.clock.now().getTime();
      assert.equal(await t.services.deliveries.runOnce(), 1);
      const gaps = [10 * MIN, 3 * HOUR, 30 * MIN, 12 * HOUR, 12 * HOUR];
      for (const gap of gaps) {
        const [due] = await nextAttempts(hook);
        assert.equal(due! - sender.to(url).at(-1)!, gap);
        t.clock.set(new Date(due! - 1));
        assert.equal(await t.services.deliveries.runOnce(), 0, 'not sooner');
        t.clock.set(new Date(due!));
        assert.equal(await t.services.deliveries.runOnce(), 1);
      }
      const sent = sender.to(url);
      assert.equal(sent.length, 6);
      assert.equal(sent.at(-1)! - start, gaps.reduce((a, b) => a + b));
      const [delivery] = (await t.call({ method: 'GET', url: `/v2/webhooks/${hook}/deliveries` })).json().data;
      assert.equal(delivery.status, 'SUCCEEDED');
      await remove(hook);
    });

    test('Retry-After adds no attempt: past the schedule the delivery fails', async () => {
      const url = 'https://always-busy.example.com/hook';
      sender.script(url, () => ({ statusCode: 429, retryAfter: '60' }));
      const hook = await register(url);
      await sale();
      assert.equal(await t.services.deliveries.runOnce(), 1);
      for (let i = 0; i < 5; i++) {
        t.clock.advance(12 * HOUR);
        assert.equal(await t.services.deliveries.runOnce(), 1);
      }
      t.clock.advance(7 * 24 * HOUR);
      assert.equal(await t.services.deliveries.runOnce(), 0);
      const [delivery] = (await t.call({ method: 'GET', url: `/v2/webhooks/${hook}/deliveries` })).json().data;
      assert.deepEqual([delivery.status, delivery.attempt], ['FAILED', 6]);
      await remove(hook);
    });
  });
}

describe("the real sender hands back the receiver's Retry-After", () => {
  let server: http.Server;
  let base: string;
  before(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      if (req.url === '/busy') res.writeHead(429, { 'retry-after': '120' }).end();
      else res.writeHead(503).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('429 with Retry-After: 120 → retryAfter "120"; a 503 without one has none', async () => {
    const sender = httpSender({ allowLoopback: true, timeoutMs: 5_000 });
    assert.deepEqual(await sender.send(`${base}/busy`, {}, '{}'), { statusCode: 429, retryAfter: '120' });
    assert.deepEqual(await sender.send(`${base}/down`, {}, '{}'), { statusCode: 503 });
  });
});
