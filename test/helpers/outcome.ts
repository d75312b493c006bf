/** For tests that call a service directly: the value of an outcome that must have succeeded. */
import assert from 'node:assert/strict';
import { isDomainError, type Outcome } from '../../src/lib/domain-error.js';

export function settled<T>(outcome: Outcome<T>): T {
  assert.ok(!isDomainError(outcome), `expected success, got ${isDomainError(outcome) ? `${outcome.code}: ${outcome.message}` : ''}`);
  return outcome;
}
