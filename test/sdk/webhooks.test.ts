/**
 * constructEvent on deliveries signed here, with node:crypto, independently
 * of the SDK's Web Crypto code: the Standard Webhooks headers (key = the
 * base64 after `whsec_`, over `id.timestamp.body`), the service's X-Svc-*
 * headers (key = the whole secret, over `timestamp.body`), the preference for
 * the former, the timestamp tolerance, and what is refused.
 */
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { constructEvent } from '../../packages/sdk/src/index.js';
import { refusal } from '../helpers/sdk.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const event = { id: 'evt_1', type: 'transaction.paid', createdAt: '2026-11-21T12:00:00.000Z', data: { transaction: { id: 'trx_1', status: 'PAID' } } };
const body = JSON.stringify(event);
const nowSeconds = () => Math.floor(Date.now() / 1000);

function standardHeaders(payload: string, timestamp = nowSeconds(), key = secret) {
  const mac = createHmac('sha256', Buffer.from(key.slice('whsec_'.length), 'base64'))
    .update(`msg_1.${timestamp}.${payload}`)
    .digest('base64');
  return { 'webhook-id': 'msg_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${mac}` };
}

function svcHeaders(payload: string, timestamp = nowSeconds(), key = secret) {
  const mac = createHmac('sha256', key).update(`${timestamp}.${payload}`).digest('hex');
  return { 'x-svc-timestamp': String(timestamp), 'x-svc-signature': `v1=${mac}` };
}


test('Standard Webhooks headers: the event is returned; Headers and plain records alike; any one of several signatures', async () => {
  assert.deepEqual(await constructEvent(body, standardHeaders(body), secret), event);
  assert.deepEqual(await constructEvent(new TextEncoder().encode(body), new Headers(standardHeaders(body)), secret), event);
  // During a rotation the header lists a signature per secret.
  const other = standardHeaders(body, nowSeconds(), `whsec_${randomBytes(32).toString('base64')}`)['webhook-signature'];
  const both = { ...standardHeaders(body), 'webhook-signature': `${other} ${standardHeaders(body)['webhook-signature']}` };
  assert.deepEqual(await constructEvent(body, both, secret), event);
  // Capitalised names, as a framework may keep them.
  const capitalised = Object.fromEntries(Object.entries(standardHeaders(body)).map(([k, v]) => [k.replace(/^w/, 'W'), v]));
  assert.deepEqual(await constructEvent(body, capitalised, secret), event);
});

test('X-Svc-* headers: the event is returned', async () => {
  assert.deepEqual(await constructEvent(body, svcHeaders(body), secret), event);
  // A secret made before the Standard Webhooks form (base64url) keeps working for X-Svc-Signature.
  const oldSecret = `whsec_${randomBytes(32).toString('base64url')}`;
  assert.deepEqual(await constructEvent(body, svcHeaders(body, nowSeconds(), oldSecret), oldSecret), event);
});

test('with both sets, the Standard Webhooks signature is the one checked', async () => {
  const tampered = { ...standardHeaders(body), 'webhook-signature': `v1,${randomBytes(32).toString('base64')}`, ...svcHeaders(body) };
  assert.equal(await refusal(constructEvent(body, tampered, secret)), 'SIGNATURE_MISMATCH');
  assert.deepEqual(await constructEvent(body, { ...standardHeaders(body), ...svcHeaders(body, 1) }, secret), event);
});

test('a changed body, another secret or a signature of another id is refused', async () => {
  const changed = body.replace('"PAID"', '"PENDING"');
  for (const headers of [standardHeaders(body), svcHeaders(body)]) {
    assert.equal(await refusal(constructEvent(changed, headers, secret)), 'SIGNATURE_MISMATCH');
    assert.equal(await refusal(constructEvent(body, headers, `whsec_${randomBytes(32).toString('base64')}`)), 'SIGNATURE_MISMATCH');
  }
  assert.equal(await refusal(constructEvent(body, { ...standardHeaders(body), 'webhook-id': 'msg_2' }, secret)), 'SIGNATURE_MISMATCH');
  assert.equal(await refusal(constructEvent(body, { ...svcHeaders(body), 'x-svc-signature': 'v1=zz' }, secret)), 'SIGNATURE_MISMATCH');
});

test('a timestamp outside the tolerance is refused, however well signed; the tolerance is an option', async () => {
  const old = nowSeconds() - 301;
  assert.equal(await refusal(constructEvent(body, standardHeaders(body, old), secret)), 'TIMESTAMP_OUT_OF_TOLERANCE');
  assert.equal(await refusal(constructEvent(body, svcHeaders(body, old), secret)), 'TIMESTAMP_OUT_OF_TOLERANCE');
  assert.equal(await refusal(constructEvent(body, svcHeaders(body, nowSeconds() + 400), secret)), 'TIMESTAMP_OUT_OF_TOLERANCE');
  assert.deepEqual(await constructEvent(body, svcHeaders(body, old), secret, { toleranceSeconds: 600 }), event);
  assert.equal(await refusal(constructEvent(body, svcHeaders(body, nowSeconds() - 20), secret, { toleranceSeconds: 10 })), 'TIMESTAMP_OUT_OF_TOLERANCE');
});

test('missing headers and a signed body that is not JSON are refused', async () => {
  assert.equal(await refusal(constructEvent(body, {}, secret)), 'MISSING_HEADERS');
  assert.equal(await refusal(constructEvent(body, { 'x-svc-signature': svcHeaders(body)['x-svc-signature'] }, secret)), 'MISSING_HEADERS');
  const { 'webhook-id': _id, ...withoutId } = standardHeaders(body);
  assert.equal(await refusal(constructEvent(body, withoutId, secret)), 'MISSING_HEADERS');
  assert.equal(await refusal(constructEvent('not json', svcHeaders('not json'), secret)), 'INVALID_PAYLOAD');
});
