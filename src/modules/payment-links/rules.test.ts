import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { linkStatus, slotRefusal, validateLink, type LinkState } from './rules.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const open: LinkState = { canceledAt: null, expiresAt: null, maxPayments: null };

describe('linkStatus', () => {
  test('canceled wins over expired, expired over completed', () => {
    const all: LinkState = { canceledAt: NOW, expiresAt: new Date(NOW.getTime() - 1), maxPayments: 1 };
    assert.equal(linkStatus(all, 1, NOW), 'CANCELED');
    assert.equal(linkStatus({ ...all, canceledAt: null }, 1, NOW), 'EXPIRED');
    assert.equal(linkStatus({ ...all, canceledAt: null, expiresAt: null }, 1, NOW), 'COMPLETED');
  });

  test('EXPIRED from the very instant expiresAt passes', () => {
    const link = { ...open, expiresAt: NOW };
    assert.equal(linkStatus(link, 0, new Date(NOW.getTime() - 1)), 'ACTIVE');
    assert.equal(linkStatus(link, 0, NOW), 'EXPIRED');
  });

  test('without maxPayments a link is never COMPLETED', () => {
    assert.equal(linkStatus(open, 1_000_000, NOW), 'ACTIVE');
  });
});

describe('slotRefusal', () => {
  test('a held slot (pending or under way) refuses the next payment though the link is not COMPLETED', () => {
    const link = { ...open, maxPayments: 2 };
    assert.equal(slotRefusal(link, 1, 1, NOW), undefined);
    assert.equal(slotRefusal(link, 1, 2, NOW)?.code, 'PAYMENT_LINK_UNAVAILABLE');
    assert.equal(linkStatus(link, 1, NOW), 'ACTIVE');
  });

  test('an unavailable link says why', () => {
    assert.match(String(slotRefusal({ ...open, canceledAt: NOW }, 0, 0, NOW)?.message.en), /canceled/);
    assert.match(String(slotRefusal({ ...open, expiresAt: NOW }, 0, 0, NOW)?.message.en), /expired/);
    assert.match(String(slotRefusal({ ...open, maxPayments: 1 }, 1, 1, NOW)?.message.en), /all its payments/);
  });
});

describe('validateLink', () => {
  const base = { amountCents: 15_990, description: 'x', paymentMethods: ['CREDIT_CARD' as const] };

  test('installments only with cards, boleto at least R$ 5,00, expiresAt in the future', () => {
    assert.deepEqual(validateLink(base, NOW), []);
    const fields = validateLink({ amountCents: 499, description: 'x', paymentMethods: ['PIX', 'BOLETO'], maxInstallments: 2, expiresAt: NOW.toISOString() }, NOW).map((p) => p.field);
    assert.deepEqual(fields, ['maxInstallments', 'amountCents', 'expiresAt']);
    assert.deepEqual(validateLink({ ...base, maxInstallments: 12, expiresAt: new Date(NOW.getTime() + 1).toISOString() }, NOW), []);
  });
});
