import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SingleFlight } from './single-flight.js';

/** A call that answers when told to, counting how often it was started. */
function gate<V>() {
  let starts = 0;
  const pending: { resolve(v: V): void; reject(e: unknown): void }[] = [];
  const call = () => {
    starts++;
    return new Promise<V>((resolve, reject) => pending.push({ resolve, reject }));
  };
  return { call, starts: () => starts, settle: (i: number) => pending[i]! };
}

test('asks for one key while its call runs share that call and its answer; other keys have their own', async () => {
  const flights = new SingleFlight<string, number>();
  const g = gate<number>();
  const asks = Array.from({ length: 50 }, () => flights.run('k', g.call));
  const other = flights.run('other', g.call);
  assert.equal(g.starts(), 2);
  g.settle(0).resolve(7);
  g.settle(1).resolve(8);
  assert.deepEqual(await Promise.all(asks), Array(50).fill(7));
  assert.equal(await other, 8);
});

test('once a call has settled, the next ask starts a new one; a failure reaches every sharer and is not kept', async () => {
  const flights = new SingleFlight<string, number>();
  const g = gate<number>();
  const first = [flights.run('k', g.call), flights.run('k', g.call)];
  g.settle(0).reject(new Error('database unavailable'));
  for (const ask of first) await assert.rejects(ask, /database unavailable/);
  const again = flights.run('k', g.call);
  assert.equal(g.starts(), 2, 'the failure was not kept');
  g.settle(1).resolve(1);
  assert.equal(await again, 1);
  const third = flights.run('k', g.call);
  assert.equal(g.starts(), 3, 'the answer was not kept either: caching is the caller’s');
  g.settle(2).resolve(2);
  assert.equal(await third, 2);
});

test('after forget, asks start their own call; the forgotten one still answers those that shared it', async () => {
  const flights = new SingleFlight<string, string>();
  const g = gate<string>();
  const before = flights.run('k', g.call);
  flights.forget('k');
  const after = flights.run('k', g.call);
  assert.equal(g.starts(), 2);
  g.settle(0).resolve('old');
  assert.equal(await before, 'old');
  // The old call settling must not drop the new call from the map.
  assert.equal(flights.run('k', g.call), after);
  assert.equal(g.starts(), 2);
  g.settle(1).resolve('new');
  assert.equal(await after, 'new');
});
