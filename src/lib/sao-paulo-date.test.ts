import { test } from 'node:test';
import assert from 'node:assert/strict';
import { saoPauloDate } from './sao-paulo-date.js';

test('the São Paulo date changes at its midnight (03:00 UTC), asked in any order', () => {
  const at = (iso: string) => saoPauloDate(new Date(iso));
  assert.equal(at('2026-11-26T02:59:59.999Z'), '2026-11-25');
  assert.equal(at('2026-11-26T03:00:00.000Z'), '2026-11-26');
  assert.equal(at('2026-11-26T02:59:00.000Z'), '2026-11-25', 'the minute before, asked after');
  assert.equal(at('2026-11-26T02:59:30.000Z'), '2026-11-25', 'the same minute again');
  assert.equal(at('2026-11-27T02:59:30.000Z'), '2026-11-26', 'the same minute of another day');
  assert.throws(() => saoPauloDate(new Date(Number.NaN)), RangeError);
});
