import { test } from 'node:test';
import assert from 'node:assert/strict';
import { qrCodePngBase64 } from '../pix/index.js';
import { deliveredBody, eventBody, eventPage } from './rules.js';

const AT = new Date('2026-11-26T12:00:00Z');
const CODE = '00020101021226820014br.gov.bcb.pix2560pix.sandbox.svc.example/qr/v2/trx_01m8b2de311s2j4mwyc8g6hzke5204000053039865406100.005802BR5915LOJA TESTE LTDA6009SAO PAULO62070503***6304425F';
const pixTransaction = {
  id: 'trx_1',
  sellerId: 'cmp_1',
  paymentDetails: { pix: { qrCode: CODE, expiresAt: '2026-11-26T13:00:00.000Z', qrCodeImageBase64: qrCodePngBase64(CODE) } },
  // A seller's metadata may use any key, this one too: it is stored and delivered as given.
  metadata: { qrCodeImageBase64: 'the seller wrote this' },
};

test('a Pix event is stored without the QR image and delivered with it, byte for byte the full transaction', () => {
  const stored = eventBody('evt_1', 'transaction.created', AT, pixTransaction);
  assert.ok(!stored.includes(qrCodePngBase64(CODE)), 'the image is not stored');
  assert.ok(stored.includes('"metadata":{"qrCodeImageBase64":"the seller wrote this"}'));
  const full = JSON.stringify({ id: 'evt_1', type: 'transaction.created', createdAt: AT.toISOString(), data: { transaction: pixTransaction } });
  assert.equal(deliveredBody(stored), full);
  assert.equal(eventPage([stored, stored], false), `{"data":[${full},${full}],"hasMore":false}`);
});

test('a refund event keeps its refund first; bodies stored with their image, and other methods, are delivered as stored', () => {
  const refund = { id: 'rf_1', amountCents: 100 };
  const stored = eventBody('evt_2', 'refund.succeeded', AT, pixTransaction, refund);
  assert.equal(deliveredBody(stored), JSON.stringify({ id: 'evt_2', type: 'refund.succeeded', createdAt: AT.toISOString(), data: { refund, transaction: pixTransaction } }));
  const withImage = JSON.stringify({ id: 'evt_3', type: 'transaction.created', createdAt: AT.toISOString(), data: { transaction: pixTransaction } });
  assert.equal(deliveredBody(withImage), withImage);
  const boleto = eventBody('evt_4', 'transaction.created', AT, { id: 'trx_2', sellerId: 'cmp_1', paymentDetails: { boleto: { digitableLine: '1', barcode: '2', dueDate: '2026-12-01' } } });
  assert.equal(deliveredBody(boleto), boleto);
});
