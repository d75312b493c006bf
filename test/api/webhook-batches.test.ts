/**
 * Webhook delivery in batches (webhooks/delivery.ts): the outcomes of a round
 * are recorded in one transaction; the worker's continuous window lets fast
 * receivers through while a slow one is still in flight; a stale outcome (its
 * lease ran out and another worker re-claimed the delivery) is not recorded
 * over the new claim; stop() waits for the sends in flight and records them.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildServices } from '../../src/app.js';
import type { Db } from '../../src/db/database.js';
import { DELIVERY_LEASE_MS, type DeliveryLoop, type DeliveryWorker, type Sender, type SendResult } from '../../src/modules/webhooks/index.js';
import { engines } from '../helpers/db.js';
import { pixSaleEvent, startTestApp, type TestApp } from '../helpers/app.js';


/** Answers 200 at once, except to the event ids held: those wait until released (a slow receiver). */
class ControlledSender implements Sender {
  eventIds: string[] = [];
  private readonly held = new Map<string, { result: Promise<SendResult>; release: (r: SendResult) => void; called: () => void; sent: Promise<void> }>();
  hold(eventId: string): { sent: Promise<void>; release: (r: SendResult) => void } {
    let release!: (r: SendResult) => void;
    let called!: () => void;
    const result = new Promise<SendResult>((r) => (release = r));
    const sent = new Promise<void>((r) => (called = r));
    this.held.set(eventId, { result, release, called, sent });
    return { sent, release };
  }
  async send(_url: string, headers: Record<string, string>): Promise<SendResult> {
    const id = headers['x-svc-event-id']!;
    this.eventIds.push(id);
    const h = this.held.get(id);
    if (!h) return { statusCode: 200 };
    h.called();
    return h.result;
  }
}

/** The same database handle, counting the transactions begun through it. */
function countingTransactions(db: Db): { db: Db; count: () => number } {
  let n = 0;
  const proxy = new Proxy(db, {
    get(target, prop) {
      if (prop === 'transaction') {
        return () => {
          n++;
          return target.transaction();
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: proxy, count: () => n };
}

async function deliveryOf(t: TestApp, eventId: string) {
  return t.db.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).executeTakeFirstOrThrow();
}

async function attemptsOf(t: TestApp, eventId: string) {
  return t.db.db.selectFrom('webhook_attempts').selectAll().where('event_id', '=', eventId).execute();
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

for (const engine of engines()) {
  describe(`webhook delivery in batches on ${engine}`, () => {
    let t: TestApp;
    const worker = (sender: Sender, db: Db = t.db.db): DeliveryWorker => buildServices({ ...t.deps, db, sender }).deliveries;
    const loop = (w: DeliveryWorker, errors: unknown[]): DeliveryLoop =>
      w.start({ window: 8, flushSize: 4, flushMs: 10, idleMs: 10, onError: (err) => errors.push(err) });

    before(async () => {
      t = await startTestApp(engine);
      const res = await t.call({ method: 'POST', url: '/v2/webhooks', payload: { url: 'https://hooks.example.com/batches', events: ['transaction.created'] } });
      assert.equal(res.statusCode, 201, res.body);
    });
    after(async () => {
      await t.close();
    });

    test("a round's outcomes are recorded together: one transaction to claim, one to record", async () => {
      const eventIds: string[] = [];
      for (let i = 0; i < 5; i++) eventIds.push(await pixSaleEvent(t));
      const counted = countingTransactions(t.db.db);
      assert.equal(await worker(new ControlledSender(), counted.db).runOnce(32), 5);
      assert.equal(counted.count(), 2, 'claim + record, not one transaction per delivery');
      for (const id of eventIds) {
        const d = await deliveryOf(t, id);
        assert.equal(d.state, 'SUCCEEDED');
        assert.equal(d.attempts, 1);
        assert.equal(d.locked_until, null);
        assert.equal((await attemptsOf(t, id)).length, 1);
      }
    });

    test('a slow receiver does not delay the others: the fast ones are recorded SUCCEEDED while it is in flight', async () => {
      const eventIds: string[] = [];
      for (let i = 0; i < 5; i++) eventIds.push(await pixSaleEvent(t));
      const sender = new ControlledSender();
      const slow = sender.hold(eventIds[0]!);
      const errors: unknown[] = [];
      const running = loop(worker(sender), errors);
      try {
        await slow.sent;
        await until('the 4 fast deliveries recorded', async () => {
          const rows = await t.db.db.selectFrom('webhook_deliveries').select('state').where('event_id', 'in', eventIds.slice(1)).execute();
          return rows.every((r) => r.state === 'SUCCEEDED');
        });
        const stuck = await deliveryOf(t, eventIds[0]!);
        assert.equal(stuck.state, 'PENDING', 'the slow one is still in flight');
        assert.equal(stuck.attempts, 0);
        assert.ok(stuck.locked_until, 'and leased');
        slow.release({ statusCode: 200 });
        await until('the slow delivery recorded', async () => (await deliveryOf(t, eventIds[0]!)).state === 'SUCCEEDED');
      } finally {
        slow.release({ statusCode: 200 });
        await running.stop();
      }
      assert.deepEqual(errors, []);
      assert.deepEqual([...sender.eventIds].sort(), [...eventIds].sort(), 'each sent once');
      for (const id of eventIds) assert.equal((await attemptsOf(t, id)).length, 1);
    });

    test('stop() waits for the sends in flight and records their outcomes', async () => {
      const eventIds: string[] = [];
      for (let i = 0; i < 3; i++) eventIds.push(await pixSaleEvent(t));
      const sender = new ControlledSender();
      const held = eventIds.map((id) => sender.hold(id));
      const errors: unknown[] = [];
      const running = loop(worker(sender), errors);
      await Promise.all(held.map((h) => h.sent));
      const stopped = running.stop();
      for (const h of held) h.release({ statusCode: 204 });
      await stopped;
      assert.deepEqual(errors, []);
      for (const id of eventIds) {
        const d = await deliveryOf(t, id);
        assert.equal(d.state, 'SUCCEEDED', 'recorded by the time stop() resolves');
        assert.equal(d.locked_until, null);
      }
    });

    test('a delivery re-claimed after its lease ran out is not overwritten by the stale outcome', async () => {
      const eventId = await pixSaleEvent(t);
      const first = new ControlledSender();
      const late = first.hold(eventId);
      const stale = worker(first).runOnce();
      await late.sent;

      t.clock.advance(DELIVERY_LEASE_MS);
      const second = new ControlledSender();
      const rescue = second.hold(eventId);
      const reclaimedAt = t.clock.now().getTime();
      const current = worker(second).runOnce();
      await rescue.sent;

      // The first worker answers late, with a failure (which would end the delivery FAILED in the sandbox).
      late.release({ statusCode: 500 });
      assert.equal(await stale, 1);
      let row = await deliveryOf(t, eventId);
      assert.equal(row.state, 'PENDING', 'the stale outcome is not recorded');
      assert.equal(row.attempts, 0);
      assert.equal(row.locked_until?.getTime(), reclaimedAt + DELIVERY_LEASE_MS, "the second worker's lease stays");
      assert.deepEqual(await attemptsOf(t, eventId), []);

      rescue.release({ statusCode: 200 });
      assert.equal(await current, 1);
      row = await deliveryOf(t, eventId);
      assert.equal(row.state, 'SUCCEEDED');
      assert.equal(row.attempts, 1);
      assert.equal(row.locked_until, null);
      const attempts = await attemptsOf(t, eventId);
      assert.equal(attempts.length, 1);
      assert.equal(attempts[0]!.status_code, 200);
      assert.equal(attempts[0]!.attempted_at.getTime(), reclaimedAt);
    });
  });
}
