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
