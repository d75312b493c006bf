import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LruMap } from './lru.js';

test('an LruMap keeps at most its capacity, forgetting the entry least recently read or written', () => {
  const lru = new LruMap<string, number>(3);
  lru.set('a', 1);
  lru.set('b', 2);
  lru.set('c', 3);
  assert.equal(lru.get('a'), 1, 'a read makes "a" the most recent');
  lru.set('d', 4);
  assert.equal(lru.size, 3);
  assert.equal(lru.get('b'), undefined, '"b" was the least recent: forgotten');
  assert.deepEqual(['a', 'c', 'd'].map((k) => lru.get(k)), [1, 3, 4]);
  lru.set('c', 30);
  lru.set('e', 5);
  assert.equal(lru.get('a'), undefined, 'after the reads above, "a" was the oldest');
  assert.deepEqual(['c', 'd', 'e'].map((k) => lru.get(k)), [30, 4, 5]);
  lru.delete('d');
  assert.equal(lru.get('d'), undefined);
  assert.equal(lru.size, 2);
});

test('an LruMap keeps a falsy value as an entry, and refuses a capacity under one', () => {
  const lru = new LruMap<string, number>(1);
  lru.set('zero', 0);
  assert.equal(lru.get('zero'), 0, 'a falsy value is still an entry');
  assert.throws(() => new LruMap(0), RangeError);
});
