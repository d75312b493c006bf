import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashPassword, OWASP_SCRYPT, paramsOf, verifyPassword } from './password.js';

test("the default is OWASP's scrypt (N = 2^17, r = 8, p = 1), named in the stored hash", async () => {
  assert.deepEqual(OWASP_SCRYPT, { logN: 17, r: 8, p: 1 });
  const stored = await hashPassword('correct horse battery');
  assert.match(stored, /^scrypt\$17\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  assert.equal(await verifyPassword('correct horse battery', stored), true);
});

test('a hash verifies with the parameters it names, whatever the current ones', async () => {
  const cheap = await hashPassword('senha muito boa', { logN: 10, r: 8, p: 1 });
  assert.deepEqual(paramsOf(cheap), { logN: 10, r: 8, p: 1 });
  assert.equal(await verifyPassword('senha muito boa', cheap), true);
  assert.equal(await verifyPassword('senha muito boa!', cheap), false);
  assert.notEqual(await hashPassword('senha muito boa', { logN: 10, r: 8, p: 1 }), cheap, 'salted');
  assert.equal(await verifyPassword('x', 'not a hash'), false);
});

test('at most 2 hashes run and 64 wait: a burst past that is refused with 503, and the rest complete', async () => {
  const outcomes = await Promise.allSettled(Array.from({ length: 70 }, () => hashPassword('senha muito boa', { logN: 4, r: 8, p: 1 })));
  const refused = outcomes.filter((o) => o.status === 'rejected');
  assert.equal(refused.length, 4);
  for (const o of refused) assert.equal((o.reason as { error: { code: string } }).error.code, 'SERVICE_UNAVAILABLE');
  assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 66);
  assert.match(await hashPassword('senha muito boa', { logN: 4, r: 8, p: 1 }), /^scrypt\$4\$/, 'the gate is free again');
});

test("the last lane (e-mails with failures) never holds both running places: a first-lane hash starts at once behind its queue", async () => {
  const cheap = { logN: 4, r: 8, p: 1 };
  const stored = await hashPassword('senha muito boa', { logN: 14, r: 8, p: 1 });
  const order: string[] = [];
  const flood = Array.from({ length: 6 }, (_, i) => verifyPassword('errada', stored, 'last').then(() => order.push(`last ${i}`)));
  const own = hashPassword('senha muito boa', cheap).then(() => order.push('first'));
  await Promise.all([...flood, own]);
  assert.equal(order[0], 'first', order.join(', '));
});
