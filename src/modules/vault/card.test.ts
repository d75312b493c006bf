import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CARD_BRANDS,
  CARD_NUMBER_LENGTHS,
  CVV_LENGTHS,
  TEST_CARDS,
  detectBrand,
  last4,
  luhnValid,
  normalizeCardNumber,
  validateCard,
  type CardBrand,
  type CardProblem,
} from './card.js';
import { CARD_REFUSALS, sandboxAuthorizationOfLast4, sandboxOutcomeOfLast4 } from '../providers/index.js';

/** What the sandbox acquirer does with a card of this number (it sees the last 4 digits only). */
const sandboxCardOutcome = (number: string) => sandboxOutcomeOfLast4(last4(number));
const sandboxAuthorization = (number: string) => sandboxAuthorizationOfLast4(last4(number));

// 2025-06-15 12:00 in São Paulo.
const NOW = new Date('2025-06-15T15:00:00Z');

function card(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { number: '4111111111111111', holderName: 'Maria da Silva', expMonth: 12, expYear: 2030, cvv: '123', ...overrides };
}

/** The problems with their English text, as the assertions below spell them. */
function problemsOf(input: unknown, now = NOW): { field: string; message: string }[] {
  const result = validateCard(input, now);
  assert.equal(result.ok, false, 'expected a validation failure');
  return result.ok ? [] : result.problems.map((p: CardProblem) => ({ field: p.field, message: p.message.en }));
}

function fields(input: unknown, now = NOW): string[] {
  return problemsOf(input, now).map((p) => p.field);
}

/** Replaces the digit at `pos` so the number becomes Luhn-valid. */
function fixLuhn(digits: string, pos: number): string {
  for (let d = 0; d <= 9; d++) {
    const candidate = digits.slice(0, pos) + d + digits.slice(pos + 1);
    if (luhnValid(candidate)) return candidate;
  }
  throw new Error('unreachable');
}

test('every test card is Luhn-valid, of its brand, of an allowed length, with the outcome it claims', () => {
  const brands = new Set<CardBrand>();
  for (const c of TEST_CARDS) {
    assert.ok(luhnValid(c.number), c.number);
    assert.equal(detectBrand(c.number), c.brand, c.number);
    assert.ok(CARD_NUMBER_LENGTHS[c.brand].includes(c.number.length), c.number);
    assert.equal(CVV_LENGTHS[c.brand], c.cvvLength);
    assert.equal(sandboxCardOutcome(c.number), c.outcome, c.number);
    const result = validateCard(card({ number: c.number, cvv: '1234'.slice(0, c.cvvLength) }), NOW);
    assert.ok(result.ok, `${c.number}: ${JSON.stringify(result)}`);
    brands.add(c.brand);
  }
  assert.deepEqual([...brands].sort(), [...CARD_BRANDS].sort(), 'a test card for every brand');
});

test('each brand is detected for its usual test number', () => {
  const expected: [string, CardBrand][] = [
    ['4111111111111111', 'visa'],
    ['4012888888881881', 'visa'],
    ['4222222222222', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2221000000900000', 'mastercard'],
    ['2720990000800000', 'mastercard'],
    ['378282246310005', 'amex'],
    ['371449635398431', 'amex'],
    ['30569309025904', 'diners'],
    ['36259600000004', 'diners'],
    ['38000000003000', 'diners'],
    ['6011111111111117', 'discover'],
    ['3530111333300000', 'jcb'],
    ['6362970000457013', 'elo'],
    ['6062825624254001', 'hipercard'],
    ['6370950000700000', 'hipercard'],
    ['5078601870800000127', 'aura'],
    ['5078000000300000', 'aura'],
  ];
  for (const [number, brand] of expected) assert.equal(detectBrand(number), brand, number);
});

test('Elo BINs inside the Visa, Aura/Maestro 50 and Discover 65 ranges are Elo', () => {
  for (const bin of ['401178', '401179', '431274', '438935', '451416', '457393', '457631', '457632']) {
    assert.equal(detectBrand(`${bin}0000000000`), 'elo', bin);
  }
  for (const bin of ['504175', '506699', '506750', '506778', '509000', '509999']) {
    assert.equal(detectBrand(`${bin}0000000000`), 'elo', bin);
  }
  for (const bin of ['650031', '650033', '650035', '650051', '650405', '650439', '650485', '650538', '650541', '650598', '650700', '650718', '650720', '650727', '650901', '650978', '651652', '651679', '655000', '655019', '655021', '655058']) {
    assert.equal(detectBrand(`${bin}0000000000`), 'elo', bin);
  }
  for (const bin of ['627780', '636297', '636368']) assert.equal(detectBrand(`${bin}0000000000`), 'elo', bin);
});

test('the gaps between Elo ranges stay with the other brand', () => {
  assert.equal(detectBrand('4011770000000000'), 'visa');
  assert.equal(detectBrand('4011800000000000'), 'visa');
  assert.equal(detectBrand('5066980000000000'), 'aura');
  assert.equal(detectBrand('5067790000000000'), 'aura');
  for (const bin of ['650034', '650719', '650979', '655020', '655059', '650000']) {
    assert.equal(detectBrand(`${bin}0000000000`), 'discover', bin);
  }
  // Mastercard (51–55, 2221–2720) has no Elo BIN inside it.
  assert.equal(detectBrand('5100000000000000'), 'mastercard');
  assert.equal(detectBrand('5500000000000000'), 'mastercard');
});

test('Hipercard 3841x0 is not Diners; other 38 BINs are', () => {
  for (const bin of ['384100', '384140', '384160']) assert.equal(detectBrand(`${bin}0000000000`), 'hipercard', bin);
  for (const bin of ['384150', '384110', '380000', '389999']) assert.equal(detectBrand(`${bin}00000000`), 'diners', bin);
  const hiper = fixLuhn('3841600000000000', 10);
  const result = validateCard(card({ number: hiper }), NOW);
  assert.ok(result.ok && result.card.brand === 'hipercard');
});

test('range edges of the other brands', () => {
  assert.equal(detectBrand('3000000000000000'), 'diners');
  assert.equal(detectBrand('3050000000000000'), 'diners');
  assert.equal(detectBrand('3060000000000000'), undefined);
  assert.equal(detectBrand('3527000000000000'), undefined);
  assert.equal(detectBrand('3528000000000000'), 'jcb');
  assert.equal(detectBrand('3589000000000000'), 'jcb');
  assert.equal(detectBrand('3590000000000000'), undefined);
  assert.equal(detectBrand('2220000000000000'), undefined);
  assert.equal(detectBrand('2721000000000000'), undefined);
  assert.equal(detectBrand('6221260000000000'), 'discover');
  assert.equal(detectBrand('6229250000000000'), 'discover');
  assert.equal(detectBrand('6221250000000000'), undefined);
  assert.equal(detectBrand('6440000000000000'), 'discover');
  assert.equal(detectBrand('6430000000000000'), undefined);
  assert.equal(detectBrand('6200000000000005'), undefined); // UnionPay
  assert.equal(detectBrand(''), undefined);
  assert.equal(detectBrand('4111abcd'), undefined);
});

test('Luhn', () => {
  assert.equal(luhnValid('4111111111111111'), true);
  assert.equal(luhnValid('4111 1111-1111 1111'), true);
  assert.equal(luhnValid('4111111111111112'), false);
  assert.equal(luhnValid('4111111111111121'), false); // two digits swapped
  assert.equal(luhnValid(''), false);
  assert.equal(luhnValid('41111111x1111111'), false);
  // Every single-digit change is caught.
  const base = '5555555555554444';
  for (let pos = 0; pos < base.length; pos++) {
    for (let d = 0; d <= 9; d++) {
      if (String(d) === base[pos]) continue;
      assert.equal(luhnValid(base.slice(0, pos) + d + base.slice(pos + 1)), false);
    }
  }
});

test('normalizeCardNumber and last4', () => {
  assert.equal(normalizeCardNumber(' 4111 1111-1111 1111 '), '4111111111111111');
  assert.equal(normalizeCardNumber('4111.1111'), undefined);
  assert.equal(last4('4111 1111 1111 1234'), '1234');
  assert.equal(last4('12'), '12');
  assert.equal(last4('abc'), '');
});

test('a valid card is normalised and returned with brand and last4', () => {
  const result = validateCard(card({ number: '4111 1111-1111 1111', holderName: '  José  D’Ávila-Núñez ', expYear: 30 }), NOW);
  assert.ok(result.ok);
  assert.deepEqual(result.card, {
    number: '4111111111111111',
    holderName: "José D'Ávila-Núñez",
    expMonth: 12,
    expYear: 2030,
    cvv: '123',
    brand: 'visa',
    last4: '1111',
  });
});

test('number: Luhn failure, bad characters, too short, too long', () => {
  assert.deepEqual(problemsOf(card({ number: '4111111111111112' })), [{ field: 'number', message: 'is not a valid card number' }]);
  assert.deepEqual(fields(card({ number: '4111-1111-1111-111x' })), ['number']);
  assert.deepEqual(fields(card({ number: '41111111111' })), ['number']);
  assert.deepEqual(fields(card({ number: '41111111111111111111' })), ['number']);
  assert.deepEqual(fields(card({ number: 4111111111111111 })), ['number']);
  assert.deepEqual(fields(card({ number: '' })), ['number']);
  assert.deepEqual(fields(card({ number: undefined })), ['number']);
});

test('number: unknown brand', () => {
  const problems = problemsOf(card({ number: '6200000000000005' }));
  assert.deepEqual(problems, [{ field: 'number', message: 'is from a card brand that is not accepted' }]);
  assert.deepEqual(fields(card({ number: fixLuhn('9000000000000000', 10) })), ['number']);
});

test('number: a length the brand does not issue', () => {
  const mc15 = fixLuhn('555555555555444', 10);
  assert.deepEqual(problemsOf(card({ number: mc15 })), [{ field: 'number', message: 'must have 16 digits for Mastercard' }]);
  const visa14 = fixLuhn('41111111111111', 10);
  assert.deepEqual(problemsOf(card({ number: visa14 })), [{ field: 'number', message: 'must have 13, 16 or 19 digits for Visa' }]);
  const amex16 = fixLuhn('3782822463100050', 10);
  assert.deepEqual(fields(card({ number: amex16, cvv: '1234' })), ['number']);
  const elo19 = fixLuhn('6362970000457013000', 10);
  assert.deepEqual(fields(card({ number: elo19 })), ['number']);
  const aura13 = fixLuhn('5078000000000', 10);
  assert.deepEqual(fields(card({ number: aura13 })), ['number']);
});

test('expiry: the current month is valid to its last day (São Paulo calendar), the previous month is expired', () => {
  assert.ok(validateCard(card({ expMonth: 6, expYear: 2025 }), NOW).ok);
  // Last minutes of June in São Paulo are already July in UTC: still valid.
  assert.ok(validateCard(card({ expMonth: 6, expYear: 2025 }), new Date('2025-07-01T02:59:00Z')).ok);
  assert.deepEqual(problemsOf(card({ expMonth: 6, expYear: 2025 }), new Date('2025-07-01T03:00:00Z')), [
    { field: 'expMonth', message: 'card has expired' },
  ]);
  assert.deepEqual(problemsOf(card({ expMonth: 5, expYear: 2025 })), [{ field: 'expMonth', message: 'card has expired' }]);
  assert.deepEqual(problemsOf(card({ expMonth: 12, expYear: 2024 })), [{ field: 'expYear', message: 'card has expired' }]);
  assert.ok(validateCard(card({ expMonth: 1, expYear: 2026 }), NOW).ok);
});

test('expiry: at most 20 years ahead', () => {
  assert.ok(validateCard(card({ expMonth: 12, expYear: 2045 }), NOW).ok);
  assert.deepEqual(problemsOf(card({ expMonth: 1, expYear: 2046 })), [{ field: 'expYear', message: 'must be at most 20 years ahead' }]);
});

test('expMonth and expYear formats', () => {
  for (const m of [0, 13, 1.5, -1, '13', 'ab', '123', true, [6]]) {
    assert.deepEqual(fields(card({ expMonth: m })), ['expMonth'], String(m));
  }
  assert.ok(validateCard(card({ expMonth: '09' }), NOW).ok);
  assert.ok(validateCard(card({ expYear: '2030' }), NOW).ok);
  const two = validateCard(card({ expYear: '30' }), NOW);
  assert.ok(two.ok && two.card.expYear === 2030);
  for (const y of [203, '203', 20300, 2030.5, 'next', null, '3']) {
    assert.deepEqual(fields(card({ expYear: y })), ['expYear'], String(y));
  }
});

test('cvv: 4 digits for Amex, 3 for the others', () => {
  const amex = '378282246310005';
  assert.ok(validateCard(card({ number: amex, cvv: '1234' }), NOW).ok);
  assert.deepEqual(problemsOf(card({ number: amex, cvv: '123' })), [{ field: 'cvv', message: 'must have 4 digits for American Express' }]);
  assert.deepEqual(problemsOf(card({ cvv: '1234' })), [{ field: 'cvv', message: 'must have 3 digits for Visa' }]);
  assert.deepEqual(fields(card({ cvv: '12' })), ['cvv']);
  assert.deepEqual(fields(card({ cvv: '12a' })), ['cvv']);
  assert.deepEqual(fields(card({ cvv: 123 })), ['cvv']);
  assert.deepEqual(fields(card({ cvv: undefined })), ['cvv']);
  // Leading zeros survive (a string, never a number).
  const zero = validateCard(card({ cvv: '007' }), NOW);
  assert.ok(zero.ok && zero.card.cvv === '007');
  // With a bad number the CVV is still checked on its own.
  assert.deepEqual(fields(card({ number: '4111111111111112', cvv: '12345' })), ['number', 'cvv']);
  assert.deepEqual(fields(card({ number: '4111111111111112', cvv: '1234' })), ['number']);
});

test('holder name', () => {
  for (const name of ['Ana Luíza Müller', "JOAO D'AVILA", 'Ç. Ñandú-Pérez', 'Lê Văn Thành', 'Al']) {
    assert.ok(validateCard(card({ holderName: name }), NOW).ok, name);
  }
  for (const name of ['A', ' A ', 'Maria 2', 'Maria@Silva', 'A'.repeat(27), '---', '', 42, 'Maria\u0000Silva']) {
    assert.deepEqual(fields(card({ holderName: name })), ['holderName'], String(name));
  }
  assert.ok(validateCard(card({ holderName: 'A'.repeat(26) }), NOW).ok);
  // Decomposed accents count once after NFC.
  const decomposed = 'Jose\u0301' + 'a'.repeat(22); // 27 code points, 26 characters after NFC
  assert.equal([...decomposed].length, 27);
  assert.ok(validateCard(card({ holderName: decomposed }), NOW).ok);
});

test('non-object input is refused on encryptedCard', () => {
  for (const input of [null, undefined, 'card', 42, [], [card()], true]) {
    assert.deepEqual(fields(input), ['encryptedCard'], JSON.stringify(input) ?? 'undefined');
  }
});

test('several problems are all reported, in field order', () => {
  assert.deepEqual(fields({ number: '1', holderName: '', expMonth: 13, expYear: 'x', cvv: 'x' }), ['number', 'holderName', 'expMonth', 'expYear', 'cvv']);
  assert.deepEqual(fields({}), ['number', 'holderName', 'expMonth', 'expYear', 'cvv']);
});

test('extra fields are ignored, or reported with rejectUnknownFields', () => {
  const input = { ...card(), brand: 'visa', '4111111111111111': 'x' };
  const lenient = validateCard(input, NOW);
  assert.ok(lenient.ok);
  assert.deepEqual(Object.keys(lenient.card).sort(), ['brand', 'cvv', 'expMonth', 'expYear', 'holderName', 'last4', 'number']);
  const strict = validateCard(input, NOW, { rejectUnknownFields: true });
  assert.equal(strict.ok, false);
  assert.deepEqual(strict.ok ? [] : strict.problems.map((p) => p.field), ['brand', 'encryptedCard']);
  assert.ok(!JSON.stringify(strict).includes('4111111111111111'));
});

test('problems never contain the card number, its digits or the CVV', () => {
  const secretsCvv = '987';
  const numbers = [
    '4111111111111112', // Luhn failure
    '6200000000000005', // unknown brand
    fixLuhn('555555555555444', 10), // wrong length
    '4111-1111-1111-111x', // bad characters
    '41111111111', // too short
    '4111111111111111', // valid number, other fields bad
  ];
  for (const number of numbers) {
    for (const cvv of [secretsCvv, '98', '9876', '98x']) {
      const result = validateCard({ number, holderName: 'X', expMonth: 13, expYear: 2020, cvv, extra: number }, NOW, { rejectUnknownFields: true });
      assert.equal(result.ok, false);
      const text = JSON.stringify(result);
      const digits = number.replace(/\D/g, '');
      assert.ok(!text.includes(digits), `number leaked: ${text}`);
      assert.ok(!text.includes(digits.slice(0, 6)), `BIN leaked: ${text}`);
      assert.ok(!text.includes(digits.slice(-4)), `last 4 leaked: ${text}`);
      assert.ok(!text.includes(cvv), `cvv leaked: ${text}`);
    }
  }
});

test('sandbox outcomes: …0002, …0069, …0119 and a normal card', () => {
  assert.equal(sandboxCardOutcome('4111113111110002'), 'insufficient_funds');
  assert.equal(sandboxCardOutcome('4111113111110069'), 'expired_card');
  assert.equal(sandboxCardOutcome('4111113111110119'), 'silent');
  assert.equal(sandboxCardOutcome('4111111111111111'), 'approved');
  assert.equal(sandboxCardOutcome('5555555555554444'), 'approved');
  // Other brands with the same endings behave the same.
  const mc0002 = fixLuhn('5555555555550002', 8);
  assert.ok(luhnValid(mc0002) && mc0002.endsWith('0002'));
  assert.equal(sandboxCardOutcome(mc0002), 'insufficient_funds');

  assert.deepEqual(sandboxAuthorization('4111111111111111'), { outcome: 'approved' });
  assert.deepEqual(sandboxAuthorization('4111113111110119'), { outcome: 'silent' });
  assert.deepEqual(sandboxAuthorization('4111113111110002'), {
    outcome: 'refused',
    refusalCode: 'insufficient_funds',
    refusalMessage: CARD_REFUSALS.insufficient_funds.refusalMessage,
  });
  assert.deepEqual(sandboxAuthorization('4111113111110069'), {
    outcome: 'refused',
    refusalCode: 'expired_card',
    refusalMessage: CARD_REFUSALS.expired_card.refusalMessage,
  });
  for (const refusal of Object.values(CARD_REFUSALS)) assert.ok(!/\d{4}/.test(refusal.refusalMessage));
});

test('the sandbox outcome cards pass validation (the acquirer refuses them, not the vault)', () => {
  for (const number of ['4111113111110002', '4111113111110069', '4111113111110119']) {
    assert.ok(validateCard(card({ number }), NOW).ok, number);
  }
});
