import { test } from 'node:test';
import assert from 'node:assert/strict';
import { intentTokenGate } from './token-state.js';

const NOW = new Date('2026-11-26T12:00:00Z');
const later = new Date(NOW.getTime() + 60_000);

test('the state the vault reads from the facts its statement returned', () => {
  const state = (facts: Record<string, unknown>) => intentTokenGate.state(facts, NOW);
  assert.equal(state({ status: null, expires_at: null, confirm_started_at: null }), 'missing', 'no row: the LATERAL join gives NULLs');
  assert.equal(state({}), 'missing');
  assert.equal(state({ status: 'REQUIRES_TOKEN', expires_at: later, confirm_started_at: null }), 'awaiting-token');
  assert.equal(state({ status: 'REQUIRES_TOKEN', expires_at: NOW, confirm_started_at: null }), 'expired');
  assert.equal(state({ status: 'REQUIRES_TOKEN', expires_at: later, confirm_started_at: NOW }), 'processed', 'a confirmation is under way');
  for (const status of ['CONFIRMED', 'FAILED', 'CANCELED']) assert.equal(state({ status, expires_at: later, confirm_started_at: null }), 'processed', status);
});
