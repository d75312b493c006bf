import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TransactionRow } from '../../db/types.js';
import { storedViewForm, transactionView, withQrImagesDrawn } from './view.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const PIX_CODE = '00020101021226830014br.gov.bcb.pix2561pix.example.com/qr/v2/cobv/trx_abc5204000053039865406100.005802BR5910Loja Teste6009Sao Paulo62070503***6304ABCD';

function row(paymentDetails: unknown, metadata: Record<string, string> | null = null): TransactionRow {
  return {
    id: 'trx_1', company_id: 'com_1', payment_intent_id: 'pi_1', status: 'PENDING', payment_method: 'PIX', installments: 1,
    amount_cents: 10000, fee_cents: 99, net_amount_cents: 9901, reference_id: 'ref-1', description: null,
    buyer: { name: 'Maria', document: '52998224725' }, payment_details: paymentDetails, metadata, split_rules: null,
    cancel_at: null, payment_link_id: null, paid_at: null, canceled_at: null, created_at: NOW, updated_at: NOW,
    refunded_cents: 0, sale_fee_cents: null, charged_back_cents: 0, charged_back_at: null, version: 1,
  };
}

const pix = row({ pix: { qrCode: PIX_CODE, expiresAt: '2026-11-21T13:00:00.000Z' } });

test('a Pix view is stored without its QR image, and expanded to its own bytes (transaction and intent views)', () => {
  const transaction = transactionView(pix, 'Loja Teste');
  const intent = { id: 'pi_1', status: 'CONFIRMED', transaction, expiresAt: '2026-11-21T13:00:00.000Z' };
  for (const view of [transaction, intent]) {
    const stored = JSON.stringify(storedViewForm.compact(view));
    assert.ok(!stored.includes('qrCodeImageBase64'), stored);
    assert.ok(stored.length < JSON.stringify(view).length - 500, 'a kilobyte of base64 less');
    assert.equal(storedViewForm.expand(stored), JSON.stringify(view));
  }
  assert.ok(JSON.stringify(transaction).includes('"qrCodeImageBase64":"iVBORw0KGgo'), 'the view itself has the PNG');
});

test('a view drawn without its image is the stored form; views with nothing to leave out are stored as they are', () => {
  const undrawn = transactionView(pix, 'Loja Teste', [], false);
  assert.equal(undrawn.paymentDetails.pix?.qrCodeImageBase64, undefined);
  assert.equal(storedViewForm.compact(undrawn), undrawn);
  assert.equal(storedViewForm.expand(JSON.stringify(undrawn)), JSON.stringify(transactionView(pix, 'Loja Teste')));
  const card = transactionView(row({ card: { brand: 'visa', last4: '1111' } }, { pix: '{"qrCode":"x"}' }), 'Loja Teste');
  assert.equal(storedViewForm.compact(card), card);
  const webhook = { id: 'wh_1', url: 'https://example.com', secret: 'whsec_x' };
  assert.equal(storedViewForm.compact(webhook), webhook);
});

test('expand leaves alone what it must not draw into: a text stored with its image, a seller\'s metadata, an error', () => {
  const withImage = JSON.stringify(transactionView(pix, 'Loja Teste'));
  assert.equal(withQrImagesDrawn(withImage), withImage);
  // Pix-looking objects outside paymentDetails are a seller's data, never drawn into.
  const metadataOnly = JSON.stringify({ id: 'pi_2', metadata: { note: 'x' }, paymentDetails: { card: { brand: 'visa', last4: '1111' } }, extra: { pix: { qrCode: PIX_CODE } } });
  assert.equal(withQrImagesDrawn(metadataOnly), metadataOnly);
  const error = JSON.stringify({ error: { code: 'PROVIDER_ERROR', message: 'The acquirer did not answer' } });
  assert.equal(storedViewForm.expand(error), error);
});

test('an event body gets the image of the transaction it carries', () => {
  const transaction = transactionView(pix, 'Loja Teste');
  const undrawn = transactionView(pix, 'Loja Teste', [], false);
  const event = (t: object) => JSON.stringify({ id: 'evt_1', type: 'transaction.created', createdAt: NOW.toISOString(), data: { transaction: t } });
  assert.equal(withQrImagesDrawn(event(undrawn)), event(transaction));
});
