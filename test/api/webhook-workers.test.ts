/**
 * Several delivery workers over one database (webhooks/delivery.ts): claims
 * with FOR UPDATE SKIP LOCKED and a lease mean every delivery is sent once
 * even when workers run concurrently, and a delivery claimed by a worker that
 * died is sent by another once the lease (DELIVERY_LEASE_MS) has run out, and
 * not before.
 *
 * On PostgreSQL each worker has its own connection pool, as separate
 * processes would. On PGlite (one connection) the same runs over the single
 * handle: the workers interleave at every await.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildServices } from '../../src/app.js';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import type { Db } from '../../src/db/database.js';
import { DELIVERY_LEASE_MS, type DeliveryWorker, type Sender, type SendResult } from '../../src/modules/webhooks/index.js';
import { engines } from '../helpers/db.js';
import { pixSaleEvent, startTestApp, type TestApp } from '../helpers/app.js';


/** Counts what it sends; answers 200 after `delayMs` of real time (a slow receiver). */
class CountingSender implements Sender {
  eventIds: string[] = [];
  constructor(private readonly delayMs: number) {}
  async send(_url: string, headers: Record<string, string>, _body: string): Promise<SendResult> {
    this.eventIds.push(headers['x-svc-event-id']!);
    await new Promise((r) => setTimeout(r, this.delayMs));
    return { statusCode: 200 };
  }
}

/** A receiver that holds the request until released: the worker sending to it is stuck mid-delivery, as if dead. */
class HangingSender implements Sender {
  eventIds: string[] = [];
  private release: ((r: SendResult) => void) | undefined;
  private notify: (() => void) | undefined;
  readonly called = new Promise<void>((resolve) => (this.notify = resolve));
  send(_url: string, headers: Record<string, string>): Promise<SendResult> {
    this.eventIds.push(headers['x-svc-event-id']!);
    this.notify!();
    return new Promise((resolve) => (this.release = resolve));
  }
  finish(result: SendResult): void {
    this.release!(result);
  }
}

async function pendingCount(db: Db): Promise<number> {
  const rows = await db.selectFrom('webhook_deliveries').select('id').where('state', '=', 'PENDING').execute();
  return rows.length;
}

for (const engine of engines()) {
  describe(`concurrent delivery workers on ${engine}`, () => {
    let t: TestApp;
    /** The second worker's database: its own pool on PostgreSQL, the same handle on PGlite. */
    let second: DatabaseHandle | undefined;
    let secondDb: Db;
    let hookUrl: string;

    function worker(db: Db, sender: Sender): DeliveryWorker {
      return buildServices({ ...t.deps, db, sender }).deliveries;
    }

    before(async () => {
      t = await startTestApp(engine);
      if (engine === 'postgres') {
        second = await openDatabase({ databaseUrl: t.db.url!, poolSize: 10 });
        secondDb = second.db;
      } else {
        secondDb = t.db.db;
      }
      hookUrl = 'https://hooks.example.com/workers';
      const res = await t.call({ method: 'POST', url: '/v2/webhooks', payload: { url: hookUrl, events: ['transaction.created'] } });
      assert.equal(res.statusCode, 201, res.body);
    });
    after(async () => {
      await second?.close();
      await t.close();
    });

    test('two workers running concurrently send each of 40 deliveries exactly once', async () => {
      const eventIds: string[] = [];
      for (let i = 0; i < 40; i++) eventIds.push(await pixSaleEvent(t));
      assert.equal(await pendingCount(t.db.db), 40);

      const senderA = new CountingSender(50);
      const senderB = new CountingSender(50);
      const workerA = worker(t.db.db, senderA);
      const workerB = worker(secondDb, senderB);
      // Both pools connected before the race, so the very first claims overlap too.
      await Promise.all([t.db.db, secondDb].flatMap((db) => Array.from({ length: 4 }, () => db.selectFrom('companies').select('id').execute())));
      const deadline = Date.now() + 60_000;
      const drain = async (w: DeliveryWorker): Promise<number> => {
        let rounds = 0;
        for (;;) {
          assert.ok(Date.now() < deadline, 'the workers finish');
          rounds++;
          const sent = await w.runOnce(4);
          if (sent === 0) {
            if ((await pendingCount(t.db.db)) === 0) return rounds;
            await new Promise((r) => setImmediate(r)); // the other worker holds the rest
          }
        }
      };
      await Promise.all([drain(workerA), drain(workerB)]);

      const all = [...senderA.eventIds, ...senderB.eventIds];
      assert.equal(all.length, 40, `A sent ${senderA.eventIds.length}, B sent ${senderB.eventIds.length}`);
      assert.equal(new Set(all).size, 40, 'no event id was sent twice');
      assert.deepEqual([...all].sort(), [...eventIds].sort());
      if (engine === 'postgres') {
        assert.ok(senderA.eventIds.length > 0 && senderB.eventIds.length > 0, `both workers did some of the work: A ${senderA.eventIds.length}, B ${senderB.eventIds.length}`);
      }
      const deliveries = await t.db.db.selectFrom('webhook_deliveries').select(['state', 'attempts']).execute();
      assert.equal(deliveries.length, 40);
      assert.ok(deliveries.every((d) => d.state === 'SUCCEEDED' && d.attempts === 1));
      const attempts = await t.db.db.selectFrom('webhook_attempts').select(['event_id', 'attempt', 'succeeded']).execute();
      assert.equal(attempts.length, 40, 'one attempt recorded per delivery');
      assert.ok(attempts.every((a) => a.attempt === 1 && a.succeeded));
    });

    test('a worker that dies mid-delivery: nobody sends before the lease ends, another worker sends it after', async () => {
      const eventId = await pixSaleEvent(t);
      const dead = new HangingSender();
      const deadWorker = worker(t.db.db, dead);
      const rescuer = new CountingSender(0);
      const rescueWorker = worker(secondDb, rescuer);

      const claimedAt = t.clock.now().getTime();
      const stuck = deadWorker.runOnce();
      await dead.called;
      assert.deepEqual(dead.eventIds, [eventId]);
      const [row] = await t.db.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).execute();
      assert.equal(row!.state, 'PENDING');
      assert.equal(row!.locked_until?.getTime(), claimedAt + DELIVERY_LEASE_MS, 'claimed with a lease');

      assert.equal(await rescueWorker.runOnce(), 0, 'leased: nobody else takes it');
      t.clock.advance(DELIVERY_LEASE_MS - 1);
      assert.equal(await rescueWorker.runOnce(), 0, '1 ms before the lease ends nobody takes it');
      assert.deepEqual(rescuer.eventIds, []);
      t.clock.advance(1);
      assert.equal(await rescueWorker.runOnce(), 1, 'at the end of the lease another worker sends it');
      assert.deepEqual(rescuer.eventIds, [eventId]);

      // The "dead" worker comes back late: its outcome is not recorded a second time.
      dead.finish({ statusCode: 200 });
      await stuck;
      const [after] = await t.db.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).execute();
      assert.equal(after!.state, 'SUCCEEDED');
      assert.equal(after!.attempts, 1);
      assert.equal(after!.locked_until, null);
      const attempts = await t.db.db.selectFrom('webhook_attempts').selectAll().where('event_id', '=', eventId).execute();
      assert.equal(attempts.length, 1);
      assert.equal(attempts[0]!.attempted_at.getTime(), claimedAt + DELIVERY_LEASE_MS, "the rescuer's attempt is the one recorded");
      t.clock.advance(DELIVERY_LEASE_MS);
      assert.equal(await rescueWorker.runOnce(), 0, 'and it is not sent again');
      assert.equal(await pendingCount(t.db.db), 0);
    });

    test('a lease left in the database by a dead worker is honoured until it runs out', async () => {
      const eventId = await pixSaleEvent(t);
      const leaseEnd = new Date(t.clock.now().getTime() + DELIVERY_LEASE_MS);
      // What a worker that died right after claiming leaves behind.
      await t.db.db.updateTable('webhook_deliveries').set({ locked_until: leaseEnd }).where('event_id', '=', eventId).execute();
      const a = new CountingSender(0);
      const b = new CountingSender(0);
      const workerA = worker(t.db.db, a);
      const workerB = worker(secondDb, b);
      assert.equal(await workerA.runOnce(), 0);
      assert.equal(await workerB.runOnce(), 0);
      t.clock.advance(DELIVERY_LEASE_MS - 1);
      assert.equal(await workerA.runOnce(), 0);
      assert.equal(await workerB.runOnce(), 0);
      assert.deepEqual([...a.eventIds, ...b.eventIds], []);
      t.clock.advance(1);
      const sent = await Promise.all([workerA.runOnce(), workerB.runOnce()]);
      assert.equal(sent[0] + sent[1], 1, 'exactly one worker takes it');
      assert.deepEqual([...a.eventIds, ...b.eventIds], [eventId]);
      const [row] = await t.db.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).execute();
      assert.equal(row!.state, 'SUCCEEDED');
      assert.equal(row!.attempts, 1);
    });
  });
}
