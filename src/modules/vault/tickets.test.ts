import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { signTicket, verifyTicket } from './tickets.js';

const key = randomBytes(32);
const claims = { intentId: 'pi_1', companyId: 'cmp_1', expiresAt: new Date('2030-01-01T00:00:00Z') };
const before = new Date('2029-12-31T23:59:59Z');

/** A ticket as jose signed them before tickets.ts signed them itself. */
const joseTicket = (payload: Record<string, unknown>, alg = 'HS256') =>
  new SignJWT(payload).setProtectedHeader({ alg, typ: 'svc-ticket' }).sign(key);

test('a ticket verifies until the second of its expiry, with its claims', () => {
  const ticket = signTicket(key, claims);
  assert.deepEqual(verifyTicket(key, ticket, before), { ok: true, claims });
  assert.deepEqual(verifyTicket(key, ticket, claims.expiresAt), { ok: false, reason: 'expired' });
});

test('jose accepts the tickets signed here, and tickets jose signed verify here', async () => {
  const { payload, protectedHeader } = await jwtVerify(signTicket(key, claims), key, { audience: 'svc-vault/tokenize', currentDate: before });
  assert.deepEqual(protectedHeader, { alg: 'HS256', typ: 'svc-ticket' });
  assert.deepEqual(payload, { cmp: 'cmp_1', sub: 'pi_1', aud: 'svc-vault/tokenize', exp: 1893456000 });
  const fromJose = await joseTicket({ cmp: 'cmp_1', sub: 'pi_1', aud: 'svc-vault/tokenize', exp: 1893456000 });
  assert.deepEqual(verifyTicket(key, fromJose, before), { ok: true, claims });
});

test('invalid: another key, a changed part, another audience or algorithm, missing claims, not a JWT', async () => {
  const ticket = signTicket(key, claims);
  const [h, p, s] = ticket.split('.') as [string, string, string];
  const payload = (over: Record<string, unknown>) => ({ cmp: 'cmp_1', sub: 'pi_1', aud: 'svc-vault/tokenize', exp: 1893456000, ...over });
  const cases: Record<string, string> = {
    'another key': signTicket(randomBytes(32), claims),
    'a changed payload': [h, Buffer.from(JSON.stringify(payload({ sub: 'pi_2' }))).toString('base64url'), s].join('.'),
    'a cut signature': [h, p, s.slice(0, -2)].join('.'),
    'alg none': [Buffer.from('{"alg":"none"}').toString('base64url'), p, ''].join('.'),
    'another audience': await joseTicket(payload({ aud: 'someone-else' })),
    'HS512': await joseTicket(payload({}), 'HS512'),
    'no company': await joseTicket(payload({ cmp: undefined })),
    'no expiry': await joseTicket(payload({ exp: undefined })),
    'not a JWT': 'abc',
  };
  for (const [what, bad] of Object.entries(cases)) assert.deepEqual(verifyTicket(key, bad, before), { ok: false, reason: 'invalid' }, what);
});
