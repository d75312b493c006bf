import test from 'node:test';
import assert from 'node:assert/strict';
import { SCOPES } from '../../http/scopes.js';
import { grantableScopes, ROLES } from './roles.js';

test('a key holds at most what its creator may do in the dashboard: an admin grants every scope, a developer charges and reads', () => {
  assert.deepEqual(grantableScopes('admin'), [...SCOPES]);
  assert.deepEqual(grantableScopes('developer'), ['webhooks:read', 'webhooks:write', 'charges:read', 'charges:write']);
  assert.deepEqual(grantableScopes('finance'), ['payments:read', 'charges:read', 'refunds:write', 'links:read', 'links:write', 'receivables:read']);
  for (const role of ROLES) assert.ok(!grantableScopes(role).includes('payments:write') || role === 'admin', role);
});
