import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ID_PREFIXES, firstIdAt, isId, makeIdGenerator, newId, timeOfId } from './ids.js';

const BODY = /^[0-9abcdefghjkmnpqrstvwxyz]{26}$/;

test('every id is its prefix, an underscore and a 26-character Crockford base-32 body', () => {
  for (const prefix of ID_PREFIXES) {
    const id = newId(prefix);
    assert.ok(id.startsWith(`${prefix}_`), id);
    assert.match(id.slice(prefix.length + 1), BODY);
    assert.equal(id.length, prefix.length + 1 + 26);
  }
});

test('the first 10 body characters encode the milliseconds, so ids sort by creation time', () => {
  let ms = Date.parse('2026-11-21T12:00:00.000Z');
  const gen = makeIdGenerator(() => ms);
  const ids: string[] = [];
  for (let i = 0; i < 50; i++) {
    ids.push(gen('trx'));
    ms += 1; // one millisecond later is always a larger id
  }
  assert.deepEqual([...ids].sort(), ids);
  // Same millisecond: same time part, different random part.
  const a = gen('trx');
  const b = gen('trx');
  assert.equal(a.slice(4, 14), b.slice(4, 14));
  assert.notEqual(a, b);
});

test('time ordering holds across a carry in the encoding (31 -> 32 ms)', () => {
  const at = (ms: number) => makeIdGenerator(() => ms)('pi');
  assert.ok(at(31) < at(32));
  assert.ok(at(1023) < at(1024));
  assert.ok(at(Date.parse('2026-01-01T00:00:00Z')) < at(Date.parse('2026-01-01T00:00:00.001Z')));
});

test('the time part is the epoch milliseconds in base 32', () => {
  assert.equal(makeIdGenerator(() => 0)('evt').slice(4, 14), '0000000000');
  assert.equal(makeIdGenerator(() => 33)('evt').slice(4, 14), '0000000011');
  assert.equal(makeIdGenerator(() => 32 ** 2 - 1)('evt').slice(4, 14), '00000000zz');
});

test('10 000 generated ids are distinct', () => {
  const ids = new Set(Array.from({ length: 10_000 }, () => newId('evt')));
  assert.equal(ids.size, 10_000);
});

test('isId accepts a generated id of its own prefix', () => {
  for (const prefix of ID_PREFIXES) assert.ok(isId(prefix, newId(prefix)));
});

test('isId rejects another prefix, a missing underscore and a prefix that only starts the same', () => {
  const trx = newId('trx');
  assert.equal(isId('pi', trx), false);
  assert.equal(isId('trx', trx.replace('trx_', 'trx')), false);
  assert.equal(isId('pi', `pix_${trx.slice(4)}`), false);
  assert.equal(isId('trx', trx.toUpperCase()), false);
});

test('isId rejects a body of the wrong length', () => {
  const id = newId('pi');
  assert.equal(isId('pi', id.slice(0, -1)), false);
  assert.equal(isId('pi', `${id}0`), false);
  assert.equal(isId('pi', 'pi_'), false);
});

test('isId rejects characters outside Crockford base 32 (i, l, o, u, uppercase, symbols)', () => {
  const id = newId('pi');
  for (const bad of ['i', 'l', 'o', 'u', 'A', '-', '_', ' ', 'é']) {
    assert.equal(isId('pi', id.slice(0, -1) + bad), false, bad);
  }
});

test('ids made in the same millisecond still sort in creation order', () => {
  const gen = makeIdGenerator(() => 1_795_000_000_000);
  const ids = Array.from({ length: 1000 }, () => gen('trx'));
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
});

test('a clock that steps back does not break the order', () => {
  let t = 1_795_000_000_000;
  const gen = makeIdGenerator(() => t);
  const a = gen('evt');
  t -= 5_000;
  const b = gen('evt');
  assert.ok(b > a);
});

test('firstIdAt is the smallest id of its millisecond; timeOfId reads the millisecond back', () => {
  const ms = Date.parse('2026-11-24T05:00:00.123Z');
  const gen = makeIdGenerator(() => ms);
  const id = gen('evt');
  assert.equal(timeOfId(id), ms);
  assert.ok(isId('evt', firstIdAt('evt', ms)));
  assert.ok(firstIdAt('evt', ms) < id && id < firstIdAt('evt', ms + 1));
  assert.equal(timeOfId(firstIdAt('evt', ms - 5_000)), ms - 5_000);
});

test('counting up within a millisecond carries from the lower 40 random bits into the upper ones, in order', () => {
  // Random bits whose lower half is 2^40 - 2: the second id after it carries.
  const bits = Buffer.from([0x12, 0x34, 0x56, 0x78, 0x9a, 0xff, 0xff, 0xff, 0xff, 0xfe]);
  const gen = makeIdGenerator(() => 1_795_000_000_000, () => bits);
  const ids = Array.from({ length: 4 }, () => gen('dlv'));
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, 4);
  const lower = ids.map((id) => id.slice(-8));
  const upper = ids.map((id) => id.slice(-16, -8));
  assert.deepEqual(lower, ['zzzzzzzy', 'zzzzzzzz', '00000000', '00000001']);
  assert.deepEqual(upper, [upper[0], upper[0], upper[2], upper[2]]);
  assert.equal(upper[0], '28t5cy4t', 'the upper half: 0x123456789a with its top bit cleared, in base 32');
  assert.equal(upper[2], '28t5cy4v', 'plus one');
});

test('the encoding is the number in base 32, digit by digit, for any time and random bits', () => {
  const crockford = (n: bigint, digits: number) =>
    n.toString(32).padStart(digits, '0').replace(/[0-9a-v]/g, (d) => '0123456789abcdefghjkmnpqrstvwxyz'[parseInt(d, 32)]!);
  for (let i = 0; i < 2000; i++) {
    const ms = Math.floor(Math.random() * 2 ** 50);
    const bits = Buffer.from(Array.from({ length: 10 }, () => Math.floor(Math.random() * 256)));
    const id = makeIdGenerator(() => ms, () => bits)('pi');
    const high = BigInt(bits.readUIntBE(0, 5)) % 2n ** 39n;
    const low = BigInt(bits.readUIntBE(5, 5));
    assert.equal(id, `pi_${crockford(BigInt(ms), 10)}${crockford(high, 8)}${crockford(low, 8)}`);
  }
});
