import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactQuery, serializeRequest } from './log-serializers.js';

test("a secret written as a query parameter's name is redacted with its value", () => {
  assert.equal(redactQuery('/v2/transactions?sk_live_x=1'), '/v2/transactions?[redacted]=[redacted]');
  assert.equal(redactQuery('/v2/transactions?svc_live_AbC123=1&limit=5'), '/v2/transactions?[redacted]=[redacted]&limit=[redacted]');
  assert.equal(redactQuery('/v2/transactions?svc_test_AbC123='), '/v2/transactions?[redacted]=[redacted]');
  assert.equal(redactQuery('/v2/webhooks?whsec_c2VjcmV0=1'), '/v2/webhooks?[redacted]=[redacted]');
  assert.equal(redactQuery('/v2/webhooks?WHSEC_c2VjcmV0=1'), '/v2/webhooks?[redacted]=[redacted]');
  assert.equal(redactQuery('/v2/x?rk_test_1=1&pk_live_2=2'), '/v2/x?[redacted]=[redacted]&[redacted]=[redacted]');
  // Ordinary names stay, for debugging, even when they mention a key.
  assert.equal(redactQuery('/v2/x?api_key=1&sk=2&svc_mode=3&whsecret=4'), '/v2/x?api_key=[redacted]&sk=[redacted]&svc_mode=[redacted]&whsecret=[redacted]');
  const logged = serializeRequest({ method: 'GET', url: '/v2/x?sk_live_s3cr3t=1', host: 'h', ip: '1.2.3.4', socket: undefined } as never);
  assert.ok(!JSON.stringify(logged).includes('s3cr3t'), JSON.stringify(logged));
});
