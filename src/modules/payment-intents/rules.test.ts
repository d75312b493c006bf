import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { statusOf } from '../../http/errors.js';
import { DomainError } from '../../lib/domain-error.js';
import {
  BOLETO_MAX_DAYS_AHEAD,
  blockedMove,
  boletoDueDate,
  cancelStep,
  confirmStep,
  effectiveStatus,
  INTENT_LIFETIME_MS,
  paymentWindowEnd,
  UNCONFIRMED_STATUSES,
  validateCreate,
} from './rules.js';
import { INTENT_STATUSES, type CreateIntentInput, type IntentStatus } from './schemas.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const CREATED = new Date('2026-11-21T12:00:00.000Z');
const EXPIRES = new Date(CREATED.getTime() + INTENT_LIFETIME_MS);

const BUYER = {
  name: 'Maria da Silva',
  document: '52998224725',
  email: 'maria@example.com',
  address: { street: 'Rua Augusta', number: '100', neighborhood: 'Consolação', city: 'São Paulo', state: 'SP' as const, zipCode: '01304000' },
};

function input(overrides: Partial<CreateIntentInput> = {}): CreateIntentInput {
  return { amountCents: 10_000, paymentMethod: 'PIX', referenceId: 'order-1', buyer: BUYER, ...overrides };
}

const fields = (problems: { field: string }[]) => problems.map((p) => p.field).sort();

describe('effectiveStatus', () => {
  const intent = (status: IntentStatus, confirmStartedAt: Date | null = null) => ({ status, expires_at: EXPIRES, confirm_started_at: confirmStartedAt });

  test('an unconfirmed intent keeps its status until 1 ms before expires_at', () => {
    const before = new Date(EXPIRES.getTime() - 1);
    assert.equal(effectiveStatus(intent('REQUIRES_CONFIRMATION'), before), 'REQUIRES_CONFIRMATION');
    assert.equal(effectiveStatus(intent('REQUIRES_TOKEN'), before), 'REQUIRES_TOKEN');
  });

  test('an unconfirmed intent is EXPIRED exactly at expires_at and after it', () => {
    for (const status of ['REQUIRES_CONFIRMATION', 'REQUIRES_TOKEN'] as const) {
      assert.equal(effectiveStatus(intent(status), EXPIRES), 'EXPIRED');
      assert.equal(effectiveStatus(intent(status), new Date(EXPIRES.getTime() + 86_400_000)), 'EXPIRED');
    }
  });

  test('an intent whose confirmation started does not expire', () => {
    const started = new Date(EXPIRES.getTime() - 1000);
    const later = new Date(EXPIRES.getTime() + 60_000);
    assert.equal(effectiveStatus(intent('REQUIRES_CONFIRMATION', started), later), 'REQUIRES_CONFIRMATION');
    assert.equal(effectiveStatus(intent('REQUIRES_TOKEN', started), later), 'REQUIRES_TOKEN');
  });

  test('end states are never changed by time', () => {
    const later = new Date(EXPIRES.getTime() + 60_000);
    for (const status of ['CONFIRMED', 'FAILED', 'EXPIRED', 'CANCELED'] as const) {
      assert.equal(effectiveStatus(intent(status), later), status);
      assert.equal(effectiveStatus(intent(status, CREATED), later), status);
    }
  });
});

describe('blockedMove', () => {
  test('unconfirmed states can still be confirmed or canceled', () => {
    assert.equal(blockedMove('REQUIRES_TOKEN'), undefined);
    assert.equal(blockedMove('REQUIRES_CONFIRMATION'), undefined);
  });

  test('EXPIRED is 409 INTENT_EXPIRED', () => {
    const error = blockedMove('EXPIRED');
    assert.ok(error instanceof DomainError);
    assert.equal(error.code, 'INTENT_EXPIRED');
    assert.equal(statusOf(error), 409);
  });

  test('CONFIRMED, FAILED and CANCELED are 409 INTENT_ALREADY_PROCESSED naming the state', () => {
    for (const status of ['CONFIRMED', 'FAILED', 'CANCELED'] as const) {
      const error = blockedMove(status);
      assert.ok(error instanceof DomainError, status);
      assert.equal(error.code, 'INTENT_ALREADY_PROCESSED');
      assert.equal(statusOf(error), 409);
      assert.match(error.message.en, new RegExp(status));
    }
  });

  test('every status is covered: only the two unconfirmed ones are free', () => {
    const free = INTENT_STATUSES.filter((s) => blockedMove(s) === undefined);
    assert.deepEqual(free, ['REQUIRES_TOKEN', 'REQUIRES_CONFIRMATION']);
  });
});

describe('validateCreate', () => {
  test('a valid Pix, boleto and card intent have no problems', () => {
    assert.deepEqual(validateCreate(input(), NOW), []);
    assert.deepEqual(validateCreate(input({ paymentMethod: 'BOLETO', boleto: { dueDate: '2026-11-30' } }), NOW), []);
    assert.deepEqual(validateCreate(input({ paymentMethod: 'CREDIT_CARD', installments: 12 }), NOW), []);
    // A valid CNPJ is accepted as a buyer document too.
    assert.deepEqual(validateCreate(input({ buyer: { ...BUYER, document: '11222333000181' } }), NOW), []);
  });

  test('a CPF or CNPJ with a wrong check digit is refused on buyer.document', () => {
    for (const document of ['52998224724', '52998224715', '11222333000182', '11222333000191', '11111111111']) {
      assert.deepEqual(fields(validateCreate(input({ buyer: { ...BUYER, document } }), NOW)), ['buyer.document'], document);
    }
  });

  test('confirm: true is refused with a card but accepted for Pix and boleto', () => {
    assert.deepEqual(fields(validateCreate(input({ paymentMethod: 'CREDIT_CARD', confirm: true }), NOW)), ['confirm']);
    assert.deepEqual(validateCreate(input({ confirm: true }), NOW), []);
    assert.deepEqual(validateCreate(input({ paymentMethod: 'BOLETO', confirm: true }), NOW), []);
    assert.deepEqual(validateCreate(input({ paymentMethod: 'CREDIT_CARD', confirm: false }), NOW), []);
  });

  test('buyer.email is required for card and boleto, not for Pix', () => {
    const { email: _email, ...noEmail } = BUYER;
    assert.deepEqual(fields(validateCreate(input({ paymentMethod: 'CREDIT_CARD', buyer: noEmail }), NOW)), ['buyer.email']);
    assert.deepEqual(fields(validateCreate(input({ paymentMethod: 'BOLETO', buyer: noEmail }), NOW)), ['buyer.email']);
    assert.deepEqual(validateCreate(input({ buyer: noEmail }), NOW), []);
  });

  test('buyer.address is required for boleto only', () => {
    const { address: _address, ...noAddress } = BUYER;
    assert.deepEqual(fields(validateCreate(input({ paymentMethod: 'BOLETO', buyer: noAddress }), NOW)), ['buyer.address']);
    assert.deepEqual(validateCreate(input({ buyer: noAddress }), NOW), []);
    assert.deepEqual(validateCreate(input({ paymentMethod: 'CREDIT_CARD', buyer: noAddress }), NOW), []);
  });

  test('a boleto is at least 500 centavos', () => {
    assert.deepEqual(fields(validateCreate(input({ paymentMethod: 'BOLETO', amountCents: 499 }), NOW)), ['amountCents']);
    assert.deepEqual(validateCreate(input({ paymentMethod: 'BOLETO', amountCents: 500 }), NOW), []);
    assert.deepEqual(validateCreate(input({ amountCents: 1 }), NOW), []);
  });

  test('installments above 1 are refused for Pix and boleto', () => {
    assert.deepEqual(fields(validateCreate(input({ installments: 2 }), NOW)), ['installments']);
    assert.deepEqual(fields(validateCreate(input({ paymentMethod: 'BOLETO', installments: 3 }), NOW)), ['installments']);
    assert.deepEqual(validateCreate(input({ installments: 1 }), NOW), []);
  });

  test('pix options only with PIX and boleto options only with BOLETO', () => {
    assert.deepEqual(fields(validateCreate(input({ paymentMethod: 'BOLETO', pix: { expiresInSeconds: 600 } }), NOW)), ['pix']);
    assert.deepEqual(fields(validateCreate(input({ paymentMethod: 'CREDIT_CARD', pix: { expiresInSeconds: 600 } }), NOW)), ['pix']);
    assert.deepEqual(fields(validateCreate(input({ boleto: { dueDate: '2026-11-30' } }), NOW)), ['boleto']);
    assert.deepEqual(validateCreate(input({ pix: { expiresInSeconds: 600 } }), NOW), []);
  });

  test('a boleto due date in the past is refused; today (São Paulo) is accepted', () => {
    const boleto = (dueDate: string, now = NOW) => fields(validateCreate(input({ paymentMethod: 'BOLETO', boleto: { dueDate } }), now));
    assert.deepEqual(boleto('2026-11-20'), ['boleto.dueDate']);
    assert.deepEqual(boleto('2026-11-21'), []);
    // 02:00Z on the 22nd is still the 21st in São Paulo (UTC-3): the 21st is today, not the past.
    assert.deepEqual(boleto('2026-11-21', new Date('2026-11-22T02:00:00.000Z')), []);
    assert.deepEqual(boleto('2026-11-21', new Date('2026-11-22T03:00:00.000Z')), ['boleto.dueDate']);
  });

  test('a boleto due date too far ahead or not a calendar date is refused', () => {
    const boleto = (dueDate: string) => validateCreate(input({ paymentMethod: 'BOLETO', boleto: { dueDate } }), NOW);
    assert.equal(BOLETO_MAX_DAYS_AHEAD, 3650);
    assert.deepEqual(boleto('2036-11-18'), []); // 3650 days after 2026-11-21
    const far = boleto('2036-11-19');
    assert.deepEqual(fields(far), ['boleto.dueDate']);
    assert.match(far[0]!.message.en, /at most 3650 days/);
    assert.deepEqual(fields(boleto('2026-02-30')), ['boleto.dueDate']);
  });

  test('every problem is reported, not only the first', () => {
    const { email: _e, address: _a, ...bare } = BUYER;
    const problems = validateCreate(
      input({ paymentMethod: 'BOLETO', amountCents: 100, installments: 2, pix: { expiresInSeconds: 60 }, buyer: { ...bare, document: '52998224724' } }),
      NOW,
    );
    assert.deepEqual(fields(problems), ['amountCents', 'buyer.address', 'buyer.document', 'buyer.email', 'installments', 'pix']);
  });
});

describe('boletoDueDate', () => {
  test('defaults to today + 3 days on the São Paulo calendar', () => {
    assert.equal(boletoDueDate({}, NOW), '2026-11-24');
    assert.equal(boletoDueDate({}, new Date('2026-11-22T02:59:59.999Z')), '2026-11-24');
    assert.equal(boletoDueDate({}, new Date('2026-11-22T03:00:00.000Z')), '2026-11-25');
    assert.equal(boletoDueDate({ boleto: { dueDate: '2027-01-05' } }, NOW), '2027-01-05');
  });
});

describe('paymentWindowEnd', () => {
  const confirmedAt = new Date('2026-11-21T12:03:00.000Z');

  test('a Pix closes at confirmation + expiresInSeconds (default 3600)', () => {
    assert.equal(paymentWindowEnd('PIX', confirmedAt, null, null)?.toISOString(), '2026-11-21T13:03:00.000Z');
    assert.equal(paymentWindowEnd('PIX', confirmedAt, 60, null)?.toISOString(), '2026-11-21T12:04:00.000Z');
    assert.equal(paymentWindowEnd('PIX', confirmedAt, 604_800, null)?.toISOString(), '2026-11-28T12:03:00.000Z');
  });

  test('a boleto closes at the start of the São Paulo day dueDate + 4 (03:00Z)', () => {
    assert.equal(paymentWindowEnd('BOLETO', confirmedAt, null, '2026-11-24')?.toISOString(), '2026-11-28T03:00:00.000Z');
    // Across a month and a year end; the time of confirmation does not matter.
    assert.equal(paymentWindowEnd('BOLETO', new Date('2026-12-01T00:00:00Z'), null, '2026-12-30')?.toISOString(), '2027-01-03T03:00:00.000Z');
  });

  test('a card transaction has no payment window', () => {
    assert.equal(paymentWindowEnd('CREDIT_CARD', confirmedAt, null, null), null);
    assert.equal(paymentWindowEnd('BOLETO', confirmedAt, null, null), null);
  });
});

describe('confirmStep (phase 1 on the locked row)', () => {
  const row = (status: IntentStatus, over: { confirmKey?: string; startedAt?: Date; method?: string } = {}) => ({
    status,
    expires_at: EXPIRES,
    confirm_started_at: over.startedAt ?? null,
    confirm_key: over.confirmKey ?? null,
    payment_method: over.method ?? 'PIX',
  });
  const code = (step: ReturnType<typeof confirmStep>) => (step.kind === 'refuse' ? step.error.code : step.kind);

  test('an unconfirmed intent is claimed; a card one needs a token first', () => {
    assert.equal(code(confirmStep(row('REQUIRES_CONFIRMATION'), NOW, 'k', false)), 'claim');
    assert.equal(code(confirmStep(row('REQUIRES_TOKEN', { method: 'CREDIT_CARD' }), NOW, 'k', false)), 'TOKEN_REQUIRED');
    assert.equal(code(confirmStep(row('REQUIRES_TOKEN', { method: 'CREDIT_CARD' }), NOW, 'k', true)), 'claim');
  });

  test('claimed under the same key resumes; under another key it is INTENT_ALREADY_PROCESSED', () => {
    const claimed = row('REQUIRES_CONFIRMATION', { confirmKey: 'k', startedAt: NOW });
    assert.equal(code(confirmStep(claimed, NOW, 'k', false)), 'resume');
    assert.equal(code(confirmStep(claimed, NOW, 'other', false)), 'INTENT_ALREADY_PROCESSED');
    // A claim keeps the intent from expiring: its confirmation is under way.
    assert.equal(code(confirmStep(claimed, EXPIRES, 'k', false)), 'resume');
  });

  test('CONFIRMED under the same key answers the existing transaction; otherwise it is already processed', () => {
    const confirmed = row('CONFIRMED', { confirmKey: 'k', startedAt: NOW });
    assert.equal(code(confirmStep(confirmed, NOW, 'k', false)), 'existing');
    assert.equal(code(confirmStep(confirmed, NOW, 'other', false)), 'INTENT_ALREADY_PROCESSED');
  });

  test('an intent past its lifetime is refused INTENT_EXPIRED and marked to be persisted EXPIRED once', () => {
    const step = confirmStep(row('REQUIRES_CONFIRMATION'), EXPIRES, 'k', false);
    assert.ok(step.kind === 'refuse');
    assert.equal(step.error.code, 'INTENT_EXPIRED');
    assert.equal(step.persistExpired, true);
    const again = confirmStep(row('EXPIRED'), EXPIRES, 'k', false);
    assert.ok(again.kind === 'refuse');
    assert.equal(again.persistExpired, false, 'already EXPIRED: nothing to write');
  });
});

describe('cancelStep', () => {
  const row = (status: IntentStatus, startedAt: Date | null = null) => ({ status, expires_at: EXPIRES, confirm_started_at: startedAt, confirm_key: null, payment_method: 'PIX' });
  const code = (step: ReturnType<typeof cancelStep>) => (step.kind === 'refuse' ? step.error.code : step.kind);

  test('an unconfirmed intent is canceled; one being confirmed or final is refused; an expired one is persisted EXPIRED', () => {
    assert.equal(code(cancelStep(row('REQUIRES_TOKEN'), NOW)), 'cancel');
    assert.equal(code(cancelStep(row('REQUIRES_CONFIRMATION', NOW), NOW)), 'INTENT_ALREADY_PROCESSED');
    assert.equal(code(cancelStep(row('CANCELED'), NOW)), 'INTENT_ALREADY_PROCESSED');
    const being = cancelStep(row('REQUIRES_CONFIRMATION', NOW), NOW);
    assert.ok(being.kind === 'refuse' && being.error.message.en === 'The payment intent is being confirmed');
    for (const status of ['CONFIRMED', 'FAILED'] as const) {
      const done = cancelStep(row(status, NOW), NOW);
      assert.ok(done.kind === 'refuse' && done.error.code === 'INTENT_ALREADY_PROCESSED');
      assert.equal(done.error.message.en, `The payment intent is already ${status}`, 'a finished intent is not "being confirmed"');
    }
    const expired = cancelStep(row('REQUIRES_CONFIRMATION'), EXPIRES);
    assert.ok(expired.kind === 'refuse' && expired.persistExpired);
    assert.equal(expired.error.code, 'INTENT_EXPIRED');
  });
});

test('UNCONFIRMED_STATUSES are the statuses that expire', () => {
  assert.deepEqual(
    INTENT_STATUSES.filter((s) => effectiveStatus({ status: s, expires_at: EXPIRES, confirm_started_at: null }, EXPIRES) === 'EXPIRED' && s !== 'EXPIRED'),
    [...UNCONFIRMED_STATUSES],
  );
});
