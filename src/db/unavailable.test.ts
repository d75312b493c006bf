import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDatabaseUnavailable } from './unavailable.js';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

test('a lost, restarting, stalled or timed-out database is recognised (503), whatever the way it shows', () => {
  for (const code of ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03', '53300', '57014', '25P03', '08006']) {
    assert.equal(isDatabaseUnavailable(pgError(code)), true, code);
  }
  for (const message of [
    'Connection terminated unexpectedly',
    'Connection terminated due to connection timeout',
    'timeout exceeded when trying to connect',
    'Query read timeout',
    'Client has encountered a connection error and is not queryable: Query read timeout',
    'Client was closed and is not queryable',
  ]) {
    assert.equal(isDatabaseUnavailable(new Error(message)), true, message);
  }
  assert.equal(isDatabaseUnavailable(new AggregateError([pgError('ECONNREFUSED')])), true, 'a refused connection to several addresses');
});

test('bugs and constraint violations are not "unavailable"', () => {
  for (const code of ['23505', '23503', '42P01', '22P02', '40001']) assert.equal(isDatabaseUnavailable(pgError(code)), false, code);
  assert.equal(isDatabaseUnavailable(new TypeError('cannot read properties of undefined')), false);
  assert.equal(isDatabaseUnavailable(undefined), false);
});
